// Requests a whole run spends, on both APIs: the demo's story (a merged pull request, `context: auto`,
// `preview: true`, `comment: true`) for jobs of a few lengths, scaled down like the real-time figures. The
// baseline is a tracking comment rewritten after every poll, as a comment that shows the time waited must be.
import { startServer } from '../sim/admin-api.ts'
import { simulateAgentApi } from '../sim/agent-api.ts'
import { startFakeGitHub } from '../sim/github-api.ts'
import { runAction } from '../sim/run-action.ts'
import { MERGED_PULL_REQUEST, PULL_REQUEST_FILES } from '../demo/merged-pull-request.ts'
import { SCALE } from './scaled.ts'

export interface RunRequests {
  /** The unscaled job duration this stands for. */
  readonly durationMs: number
  readonly admin: { readonly jobPolls: number; readonly previewPolls: number; readonly writes: number }
  readonly github: { readonly reads: number; readonly writes: number }
  /** GitHub requests of the same run with a comment rewritten after every poll. */
  readonly rewriteEveryPoll: number
}

export async function measureRunRequests(durationsMs = [60_000, 600_000, 1_800_000]): Promise<RunRequests[]> {
  const rows: RunRequests[] = []
  for (const durationMs of durationsMs) rows.push(await measureOne(durationMs))
  return rows
}

async function measureOne(durationMs: number): Promise<RunRequests> {
  const apiKey = 'mint_bench_key'
  const api = simulateAgentApi({
    projectId: 'bench',
    apiKey,
    run: {
      activeForMs: durationMs / SCALE,
      final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/1' }
    },
    previews: { build: { queuedPolls: 1, buildingPolls: 3, final: 'success' } }
  })
  const server = await startServer(api.respond)
  const github = await startFakeGitHub({ owner: 'acme', repo: 'api', pullFiles: { 42: PULL_REQUEST_FILES } })
  try {
    const run = await runAction({
      inputs: {
        'project-id': 'bench',
        'api-key': apiKey,
        prompt: 'Update the docs for the change below.',
        context: 'auto',
        preview: 'true',
        comment: 'true',
        'base-url': server.url,
        'poll-interval': `${5000 / SCALE}ms`,
        'max-poll-interval': `${30_000 / SCALE}ms`,
        timeout: `${3_600_000 / SCALE}ms`
      },
      env: { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'acme/api' },
      eventName: 'pull_request',
      event: MERGED_PULL_REQUEST
    })
    if (run.exitCode !== 0) throw new Error(`the run failed:\n${run.stdout}`)
    const gets = server.requests.filter((request) => request.method === 'GET')
    const jobPolls = gets.filter((request) => request.url.startsWith('/v2/')).length
    const previewPolls = gets.length - jobPolls
    const githubWrites = github.calls.filter((call) => /^(POST|PATCH) \/repos\//.test(call)).length
    const githubReads = github.calls.length - githubWrites
    return {
      durationMs,
      admin: { jobPolls, previewPolls, writes: server.requests.length - gets.length },
      github: { reads: githubReads, writes: githubWrites },
      // The same reads and the first write, then one more write after each poll of the job and of the preview.
      rewriteEveryPoll: githubReads + 1 + jobPolls + previewPolls
    }
  } finally {
    await Promise.all([server.close(), github.close()])
  }
}
