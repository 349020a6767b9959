// `npm run demo -- pair`: a code pull request's life with `mode: pair`, against the simulated admin API and GitHub:
// it opens (one job), gets two pushes (two follow-ups, each with only its new commits), and is merged (a note on the
// docs pull request, no job). Each run is the bundled action, run as the runner runs it.
import { type SimulatedFile, type SimulatedPull, startFakeGitHub } from '../sim/github-api.ts'
import { repositoryTarball } from '../sim/tarball.ts'
import { type ActionRun, runAction } from '../sim/run-action.ts'
import { renderRunnerLog } from '../sim/runner-log.ts'
import { DEMO_KEY, serveJobsCompletingWith } from './scenario.ts'

const PROMPT = 'Keep the docs in step with this pull request: the API reference, and a guide section if it needs one.'
const sha = (char: string): string => char.repeat(40)
const [OPENED, FIRST_PUSH, SECOND_PUSH] = ['1', '2', '3'].map(sha) as [string, string, string]

/** The code at each head, for the grounding check: the names the docs page uses are all there. */
const CODE = {
  'src/client.ts':
    'export interface ClientOptions {\n  retries?: number\n}\nexport function createClient(options: ClientOptions) {}\n'
}
const DOCS_BASE = sha('0')
const DOCS_PULL: SimulatedPull = {
  number: 128,
  state: 'open',
  labels: [],
  baseSha: DOCS_BASE,
  headSha: sha('9'),
  files: [
    {
      filename: 'api/retries.mdx',
      status: 'added',
      additions: 1,
      deletions: 0,
      patch: '@@ -0,0 +1 @@\n+Pass `retries` to `createClient` to send a failed request again.'
    }
  ]
}
const TARBALLS = Object.fromEntries([
  ...[OPENED, FIRST_PUSH, SECOND_PUSH].map((head) => [
    `acme/api@${head}`,
    repositoryTarball(`acme-api-${head.slice(0, 7)}`, CODE)
  ]),
  [`acme/docs@${DOCS_BASE}`, repositoryTarball(`acme-docs-${DOCS_BASE.slice(0, 7)}`, { 'index.mdx': '# Acme\n' })]
]) as Record<string, Buffer>

const file = (filename: string, added: string): SimulatedFile => ({
  filename,
  status: 'modified',
  additions: 1,
  deletions: 0,
  patch: `@@ -1,2 +1,3 @@\n export interface ClientOptions {\n+  ${added}\n }`
})

function pullEvent(action: string, head: string, merged = false) {
  return {
    action,
    number: 42,
    pull_request: {
      number: 42,
      title: 'Add a retries option to createClient',
      html_url: 'https://github.com/acme/api/pull/42',
      user: { login: 'octocat', type: 'User' },
      body: 'Adds `retries` to `createClient`.',
      head: { ref: 'feature/retries', sha: head },
      base: { ref: 'main' },
      merged,
      state: action === 'closed' ? 'closed' : 'open',
      created_at: '2026-11-20T09:00:00Z',
      labels: []
    }
  }
}

export interface PairDemo {
  readonly runs: readonly { readonly title: string; readonly run: ActionRun }[]
  /** What each request to the admin API carried. */
  readonly posts: readonly { readonly what: string; readonly prompt: string }[]
  /** The note on the docs pull request, once the code pull request was merged. */
  readonly note: string | undefined
  readonly labels: readonly string[]
}

export async function runPairDemo(entry?: string): Promise<PairDemo> {
  const { api, server } = await serveJobsCompletingWith('https://github.com/acme/docs/pull/128')
  const github = await startFakeGitHub({
    owner: 'acme',
    repo: 'api',
    pullFiles: { 42: [file('src/client.ts', 'retries?: number')] },
    pulls: { 'acme/docs': [DOCS_PULL] },
    tarballs: TARBALLS,
    compares: {
      [`${OPENED}...${FIRST_PUSH}`]: {
        commits: [{ sha: FIRST_PUSH, message: 'Add a backoff option', author: 'octocat' }],
        files: [file('src/backoff.ts', 'backoff?: "linear" | "exponential"')]
      },
      [`${FIRST_PUSH}...${SECOND_PUSH}`]: {
        commits: [{ sha: SECOND_PUSH, message: 'Cap retries at 10', author: 'octocat' }],
        files: [file('src/client.ts', 'maxRetries?: number')]
      }
    }
  })
  const step = (title: string, event: unknown) =>
    runAction({
      ...(entry ? { entry } : {}),
      eventName: 'pull_request',
      event,
      env: { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'acme/api' },
      inputs: {
        'project-id': 'demo-project',
        'api-key': DEMO_KEY,
        mode: 'pair',
        prompt: PROMPT,
        'merged-label': 'code merged',
        // As the recipe: the docs pull request is in another repository.
        'docs-token': 'ghs_demo_docs_token',
        'base-url': server.url,
        'poll-interval': '300ms',
        'max-poll-interval': '1s'
      }
    }).then((run) => ({ title, run }))
  try {
    const runs = []
    runs.push(await step('Pull request #42 opened', pullEvent('opened', OPENED)))
    runs.push(await step('A push to pull request #42', pullEvent('synchronize', FIRST_PUSH)))
    runs.push(await step('Another push to pull request #42', pullEvent('synchronize', SECOND_PUSH)))
    runs.push(await step('Pull request #42 merged', pullEvent('closed', SECOND_PUSH, true)))
    return {
      runs,
      posts: api.posts.map((post) => ({ what: post.what, prompt: String(post.prompt) })),
      note: github.comments.find((comment) => comment.repo === 'acme/docs')?.body,
      labels: github.pulls.get('acme/docs')?.[0]?.labels ?? []
    }
  } finally {
    await Promise.all([server.close(), github.close()])
  }
}

/** Prints the demo as a user would follow it: each run's log, what each request carried, the note on the docs PR. */
export async function showPairDemo(entry: string | undefined, line: (title: string) => void): Promise<number> {
  console.log(
    `mode: pair, on pull request #42 in acme/api: it opens, gets two pushes, and is merged. Each event runs the step\nwith the prompt\n\n  ${PROMPT}\n\nagainst a simulated admin API (each job completes with the docs pull request acme/docs#128) and a simulated GitHub.`
  )
  const demo = await runPairDemo(entry)
  for (const { title, run } of demo.runs) {
    line(`${title}: the step's log`)
    console.log(renderRunnerLog(run.stdout, { debug: false }))
    console.log(`\noutcome: ${run.outputs['outcome'] ?? ''}, action-taken: ${run.outputs['action-taken'] ?? ''}`)
  }
  line('What each request to the admin API carried (its section headings and commits)')
  for (const post of demo.posts) {
    console.log(`\n${post.what}:`)
    const carried = post.prompt.split('\n').filter((text) => text.startsWith('### ') || /^- `[0-9a-f]{7}`/.test(text))
    for (const text of carried) console.log(`  ${text}`)
  }
  line('The docs pull request acme/docs#128 after the merge')
  console.log(`comment: ${demo.note ?? '(none)'}\nlabels: ${demo.labels.join(', ') || '(none)'}`)
  const failed = demo.runs.filter(({ run }) => run.exitCode !== 0)
  line('Result')
  console.log(
    `${demo.runs.length} runs, ${failed.length} failed; ${demo.posts.length} requests to the agent: one job, then follow-ups`
  )
  return failed.length === 0 ? 0 : 1
}
