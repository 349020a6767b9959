// `npm run demo -- command`: requests from a comment with `command: /docs`, against the simulated admin API and GitHub.
// A maintainer comments `/docs document the new flag` on pull request #42 (a job, with eyes on the comment, then a
// rocket); a reader's `/docs` is refused with a reply; an ordinary comment costs nothing. Each run is the bundled
// action, run as the runner runs it.
import { startFakeGitHub } from '../sim/github-api.ts'
import { type ActionRun, runAction } from '../sim/run-action.ts'
import { renderRunnerLog } from '../sim/runner-log.ts'
import { DEMO_KEY, serveJobsCompletingWith } from './scenario.ts'
import { PULL_REQUEST_FILES } from './merged-pull-request.ts'

function commentEvent(id: number, body: string, user: string) {
  return {
    action: 'created',
    issue: {
      number: 42,
      title: 'Add a retries option to createClient',
      body: 'Adds `retries` to `createClient`.',
      html_url: 'https://github.com/acme/api/pull/42',
      user: { login: 'octocat', type: 'User' },
      pull_request: { url: 'https://api.github.com/repos/acme/api/pulls/42' }
    },
    comment: { id, body, user: { login: user, type: 'User' } }
  }
}

export async function showCommandDemo(entry: string | undefined, line: (title: string) => void): Promise<number> {
  console.log(
    'command: /docs, on comments of pull request #42 in acme/api. mona has write access; visitor can only read.\nA simulated admin API (each job completes with acme/docs#128) and a simulated GitHub.'
  )
  const { api, server } = await serveJobsCompletingWith('https://github.com/acme/docs/pull/128')
  const github = await startFakeGitHub({
    owner: 'acme',
    repo: 'api',
    roles: { mona: 'write', visitor: 'read' },
    pullFiles: { 42: PULL_REQUEST_FILES }
  })
  const comment = (id: number, body: string, user: string): Promise<ActionRun> =>
    runAction({
      ...(entry ? { entry } : {}),
      eventName: 'issue_comment',
      event: commentEvent(id, body, user),
      env: { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'acme/api' },
      inputs: {
        'project-id': 'demo-project',
        'api-key': DEMO_KEY,
        command: '/docs',
        context: 'auto',
        'base-url': server.url,
        'poll-interval': '300ms',
        'max-poll-interval': '1s'
      }
    })
  try {
    const runs: [string, ActionRun][] = []
    for (const [id, body, user] of [
      [501, '/docs document the new flag', 'mona'],
      [502, '/docs rewrite everything', 'visitor'],
      [503, 'Looks good to me!', 'visitor']
    ] as const) {
      const run = await comment(id, body, user)
      runs.push([`${user}: ${body}`, run])
      line(`${user} comments "${body}": the step's log`)
      console.log(renderRunnerLog(run.stdout, { debug: false }))
      const outputs = ['outcome', 'action-taken', 'requested-by', 'skip-reason', 'prLink']
      console.log(`\n${outputs.map((name) => `${name}: ${run.outputs[name] ?? ''}`).join(', ')}`)
    }
    line('The prompt the admin API received')
    const prompt = api.posts[0]?.prompt
    console.log(typeof prompt === 'string' ? prompt : '(none)')
    line('Reactions on the comments')
    for (const reaction of github.reactions) console.log(`comment ${reaction.commentId}: ${reaction.content}`)
    line('The comments on pull request #42 (Markdown)')
    for (const stored of github.comments) console.log(`\n${stored.body}`)
    const failed = runs.filter(([, run]) => run.exitCode !== 0)
    line('Result')
    console.log(`${runs.length} comments, ${failed.length} failed; ${api.posts.length} request to the agent`)
    return failed.length === 0 ? 0 : 1
  } finally {
    await Promise.all([server.close(), github.close()])
  }
}
