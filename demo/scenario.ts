// The demo's story, run against the simulated admin API and GitHub: a merged pull request in a code repository
// starts an agent job with `context: auto` and `preview: true`; the tracking comment goes on the pull request and is
// recorded each time it changes, so the demo and the pictures show what a reviewer sees.
import { startServer } from '../sim/admin-api.ts'
import { simulateAgentApi } from '../sim/agent-api.ts'
import { startFakeGitHub } from '../sim/github-api.ts'
import { type ActionRun, runAction } from '../sim/run-action.ts'
import { DOCS_PULL, MERGED_PULL_REQUEST, PULL_REQUEST_FILES, TARBALLS } from './merged-pull-request.ts'

/** The key the simulated admin API takes: not a secret anywhere. */
export const DEMO_KEY = 'mint_demo_key_not_a_real_secret'

/** A simulated admin API on 127.0.0.1 whose every job is active for one poll, then completes with `prLink`. */
export async function serveJobsCompletingWith(prLink: string) {
  const api = simulateAgentApi({
    projectId: 'demo-project',
    apiKey: DEMO_KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink } }
  })
  return { api, server: await startServer(api.respond) }
}

export const DEMO_PROMPT =
  'Update the docs for the change below: the API reference, and a guide section if it needs one.'

export interface DemoRun {
  readonly run: ActionRun
  /** The prompt as the admin API received it. */
  readonly prompt: string
  /** Each version of the tracking comment, in the order it was written. */
  readonly comments: readonly string[]
  readonly apiRequests: number
  readonly polls: number
  readonly githubRequests: number
}

export async function runDemoScenario(
  options: { readonly entry?: string; readonly debug?: boolean } = {}
): Promise<DemoRun> {
  const api = simulateAgentApi({
    projectId: 'demo-project',
    apiKey: DEMO_KEY,
    run: { activeForMs: 3000, final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/128' } },
    previews: { build: { queuedPolls: 1, buildingPolls: 3, final: 'success' } }
  })
  const server = await startServer(api.respond)
  const github = await startFakeGitHub({
    owner: 'acme',
    repo: 'api',
    pullFiles: { 42: PULL_REQUEST_FILES },
    pulls: { 'acme/docs': [DOCS_PULL] },
    tarballs: TARBALLS
  })
  try {
    const run = await runAction({
      ...(options.entry ? { entry: options.entry } : {}),
      inputs: {
        'project-id': 'demo-project',
        'api-key': 'mint_demo_key_not_a_real_secret',
        prompt: DEMO_PROMPT,
        context: 'auto',
        preview: 'true',
        comment: 'true',
        // As the first recipe: the agent's pull request is in acme/docs, another repository.
        'docs-token': 'ghs_demo_docs_token',
        'base-url': server.url,
        // Scaled down so the demo takes seconds: the real defaults are 5s growing to 30s.
        'poll-interval': '500ms',
        'max-poll-interval': '2s'
      },
      env: {
        GITHUB_API_URL: github.url,
        GITHUB_REPOSITORY: 'acme/api',
        ...(options.debug ? { RUNNER_DEBUG: '1' } : {})
      },
      eventName: 'pull_request',
      event: MERGED_PULL_REQUEST
    })
    // Each version of the tracking comment the action wrote, an edit that changed nothing left out.
    const tracking = github.written[0]?.id
    const comments = github.written
      .filter((version) => version.id === tracking)
      .map((version) => version.body)
      .filter((body, index, bodies) => body !== bodies[index - 1])
    const prompt = api.posts[0]?.prompt
    return {
      run,
      prompt: typeof prompt === 'string' ? prompt : '',
      comments,
      apiRequests: server.requests.length,
      polls: server.requests.filter((request) => request.method === 'GET').length,
      githubRequests: github.calls.length
    }
  } finally {
    await Promise.all([server.close(), github.close()])
  }
}
