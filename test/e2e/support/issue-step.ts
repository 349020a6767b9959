// A step on issue #12 of acme/docs, where most tests of the tracking comment and of re-runs run: the event, a job that
// waits for the test, and a step that starts a job there with comment: true against a GitHub the test sets up.
import { sendJson } from '../../../sim/admin-api.ts'
import type { Loopback } from './loopback.ts'
import { runAction, type RunOptions } from './run-bundle.ts'

const ISSUE_EVENT = { action: 'labeled', issue: { number: 12, title: 'Document /users' } }
const PR = 'https://github.com/acme/docs/pull/9'

/** The options of a run on issue #12, against this GitHub. */
export const onIssue = (github: { url: string }, env: Record<string, string> = {}): Partial<RunOptions> => ({
  eventName: 'issues',
  event: ISSUE_EVENT,
  env: { GITHUB_API_URL: github.url, ...env }
})

/** A job that stays active until the test says otherwise. */
export const running = (jobId: string) => ({
  jobId,
  activePolls: Infinity,
  final: { status: 'completed', prLink: PR }
})

/** The run function of a step that starts a job from issue #12 with comment: true, the job completed at once. */
export function issueRunner(servers: Loopback, secrets: { key: string; token: string }) {
  return async function runWith(
    github: { url: string },
    inputs: Record<string, string> = {},
    env: Record<string, string> = {},
    options: Pick<RunOptions, 'nodeArgs' | 'env'> = {}
  ) {
    const server = await servers.serve((req, res) =>
      sendJson(res, req.method === 'POST' ? 201 : 200, { id: 'job-1', status: 'completed' })
    )
    return runAction({
      ...options,
      githubToken: secrets.token,
      eventName: 'issues',
      event: { action: 'opened', issue: { number: 12 } },
      env: { ...options.env, GITHUB_API_URL: github.url, RUNNER_DEBUG: '1', ...env },
      inputs: {
        'project-id': 'docs',
        'api-key': secrets.key,
        'base-url': server.url,
        prompt: 'Go',
        comment: 'true',
        'poll-interval': '50ms',
        ...inputs
      }
    })
  }
}
