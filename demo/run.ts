// Runs the bundled action exactly as the Actions runner would, and shows what a user would see: the log, the
// outputs, the job summary and the tracking comment. By default it talks to a local simulated admin API and a
// simulated GitHub (no account needed): it starts an agent job from an issue's prompt and keeps a comment on it. With MINTLIFY_API_KEY and MINTLIFY_PROJECT_ID set, it uses the real API instead: it
// starts a job from MINTLIFY_PROMPT, or waits for MINTLIFY_JOB_ID.
import { startServer } from '../sim/admin-api.ts'
import { simulateAgentApi } from '../sim/agent-api.ts'
import { startFakeGitHub } from '../sim/github-api.ts'
import { runAction } from '../sim/run-action.ts'
import { renderRunnerLog, renderSummaryText } from '../sim/runner-log.ts'

const real = process.env['MINTLIFY_API_KEY'] !== undefined
const line = (title: string): void => {
  console.log(`\n── ${title} ${'─'.repeat(Math.max(0, 70 - title.length))}`)
}
const PROMPT = 'Document the new /users endpoint.\nInclude a request example and the error codes.'

const simulated = real
  ? undefined
  : simulateAgentApi({
      projectId: 'demo-project',
      apiKey: 'mint_demo_key_not_a_real_secret',
      run: { activeForMs: 4000, final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/128' } }
    })
const server = simulated ? await startServer(simulated.respond) : undefined
const github = simulated ? await startFakeGitHub() : undefined

const inputs: Record<string, string> = server
  ? {
      'project-id': 'demo-project',
      'api-key': 'mint_demo_key_not_a_real_secret',
      prompt: PROMPT,
      'base-url': server.url,
      // Scaled down so the demo takes seconds: the real defaults are 5s growing to 30s.
      'poll-interval': '500ms',
      'max-poll-interval': '2s',
      comment: 'true'
    }
  : {
      'project-id': process.env['MINTLIFY_PROJECT_ID'] ?? '',
      'api-key': process.env['MINTLIFY_API_KEY'] ?? '',
      ...(process.env['MINTLIFY_PROMPT'] ? { prompt: process.env['MINTLIFY_PROMPT'] } : {}),
      ...(process.env['MINTLIFY_JOB_ID'] ? { 'job-id': process.env['MINTLIFY_JOB_ID'] } : {})
    }

console.log(
  server
    ? `A simulated admin API at ${server.url} starts an agent job from the prompt below: active for about 4 s, then completed with a pull request.\n\n${PROMPT}`
    : 'Using the real Mintlify admin API at https://api.mintlify.com.'
)
const debug = process.env['RUNNER_DEBUG'] === '1'
const run = await runAction({
  inputs,
  // The tests point the demo at the bundle of the sources under test; users run the committed dist/.
  ...(process.env['ACTION_ENTRY'] ? { entry: process.env['ACTION_ENTRY'] } : {}),
  env: { ...(debug ? { RUNNER_DEBUG: '1' } : {}), ...(github ? { GITHUB_API_URL: github.url } : {}) },
  ...(github
    ? { eventName: 'issues', event: { action: 'labeled', issue: { number: 12, title: 'Document /users' } } }
    : {})
})
await server?.close()
await github?.close()

line(`The step's log, as the run page shows it${debug ? '' : ' (RUNNER_DEBUG=1 npm run demo shows debug lines too)'}`)
console.log(renderRunnerLog(run.stdout, { debug }))

line('Outputs (steps.<id>.outputs.*)')
for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}: ${value}`)
line('Job summary (shown on the run page as a table)')
console.log(renderSummaryText(run.summary))
if (github) {
  line('The tracking comment on issue #12 (Markdown)')
  for (const comment of github.comments) console.log(comment.body)
}
line('Result')
console.log(
  `exit code ${run.exitCode ?? 'none'}: the step ${run.exitCode === 0 ? 'passed' : 'failed'} in ${Math.round(run.durationMs)} ms`
)
if (server)
  console.log(`the simulated API answered ${server.requests.length} requests: 1 to start the job, the rest polls`)
process.exitCode = run.exitCode ?? 1
