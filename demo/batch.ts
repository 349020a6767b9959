// `npm run demo -- batch`: a daily batch with `mode: batch`, against the simulated admin API and GitHub: four pull
// requests and a commit pushed without one, merged since the last batch, become one job; the next run finds nothing
// new and spends none. Each run is the bundled action, run as the runner runs it.
import { startFakeGitHub } from '../sim/github-api.ts'
import type { SimulatedHistory } from '../sim/github-history.ts'
import { type ActionRun, runAction } from '../sim/run-action.ts'
import { renderRunnerLog } from '../sim/runner-log.ts'
import { DEMO_KEY, serveJobsCompletingWith } from './scenario.ts'

const PROMPT = 'Update the docs for everything merged below, where readers would notice it.'

const hoursAgo = (hours: number): string => new Date(Date.now() - hours * 3_600_000).toISOString()

const PULLS = [
  { number: 51, title: 'Add a retries option to createClient', user: 'octocat', file: 'src/client.ts' },
  { number: 52, title: 'Bump undici from 7.1 to 7.2', user: 'dependabot[bot]', file: 'package.json' },
  { number: 53, title: 'Add a backoff option', user: 'mona', file: 'src/backoff.ts' },
  { number: 54, title: 'Deprecate the legacy timeout option', user: 'hubot', file: 'src/options.ts' }
]

/** The branch: one merge commit an hour for each pull request, then a commit pushed without one. */
function history(): SimulatedHistory {
  const merged = PULLS.map((pull, index) => ({
    number: pull.number,
    title: pull.title,
    user: pull.user,
    mergedAt: hoursAgo(6 - index),
    mergeCommit: String(pull.number).repeat(20),
    body: `${pull.title}, as the changelog says.`,
    files: [
      {
        filename: pull.file,
        status: 'modified',
        additions: 8,
        deletions: 2,
        patch: `@@ -1 +1 @@\n-old\n+${pull.title}`
      }
    ]
  }))
  const commits = merged.map((pull) => ({
    sha: pull.mergeCommit,
    message: `${pull.title} (#${pull.number})`,
    author: 'octocat',
    date: pull.mergedAt
  }))
  commits.push({ sha: 'f'.repeat(40), message: 'Fix a typo in the README', author: 'hubot', date: hoursAgo(1) })
  return { branch: 'main', commits, merged }
}

export async function showBatchDemo(entry: string | undefined, line: (title: string) => void): Promise<number> {
  console.log(
    `mode: batch, on a schedule, in acme/api: since the last batch, four pull requests were merged into main (one a\nDependabot bump) and one commit was pushed without a pull request. The prompt:\n\n  ${PROMPT}\n`
  )
  const { api, server } = await serveJobsCompletingWith('https://github.com/acme/docs/pull/300')
  const github = await startFakeGitHub({ owner: 'acme', repo: 'api', history: history() })
  const step = (): Promise<ActionRun> =>
    runAction({
      ...(entry ? { entry } : {}),
      eventName: 'schedule',
      event: { schedule: '0 6 * * 1-5' },
      env: { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'acme/api' },
      inputs: {
        'project-id': 'demo-project',
        'api-key': DEMO_KEY,
        mode: 'batch',
        prompt: PROMPT,
        'batch-notify': 'true',
        'base-url': server.url,
        'poll-interval': '300ms',
        'max-poll-interval': '1s'
      }
    })
  try {
    const first = await step()
    line("The first run: the step's log")
    console.log(renderRunnerLog(first.stdout, { debug: false }))
    line('The prompt the admin API received')
    const prompt = api.posts[0]?.prompt
    console.log(typeof prompt === 'string' ? prompt : '(none)')
    line('Outputs of the batch')
    for (const name of ['outcome', 'batch-size', 'batch-prs', 'batch-from', 'batch-to', 'prLink']) {
      console.log(`${name}: ${first.outputs[name] ?? ''}`)
    }
    line(`The digest issue #${github.issues[0]?.number ?? '?'}: the batch's tracking comment`)
    console.log(github.comments.find((comment) => comment.issue === github.issues[0]?.number)?.body ?? '(none)')
    const second = await step()
    line("The next run, with nothing merged since: the step's log")
    console.log(renderRunnerLog(second.stdout, { debug: false }))
    line('Result')
    console.log(
      `2 runs: ${api.posts.length} agent job for ${PULLS.length} merged pull requests; the second run spent none.`
    )
    return first.exitCode === 0 && second.exitCode === 0 ? 0 : 1
  } finally {
    await Promise.all([server.close(), github.close()])
  }
}
