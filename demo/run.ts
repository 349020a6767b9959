// Runs the bundled action exactly as the Actions runner would, and shows what a user would see: the log, the
// outputs and the job summary. By default it talks to a local simulated admin API (no account needed).
// With MINTLIFY_API_KEY, MINTLIFY_PROJECT_ID and MINTLIFY_JOB_ID set, it waits for that real job instead.
import { playJob, startServer } from '../sim/admin-api.ts'
import { runAction } from '../sim/run-action.ts'
import { renderRunnerLog, renderSummaryText } from '../sim/runner-log.ts'

const real = process.env['MINTLIFY_API_KEY'] !== undefined
const line = (title: string): void => {
  console.log(`\n── ${title} ${'─'.repeat(Math.max(0, 70 - title.length))}`)
}

const server = real
  ? undefined
  : await startServer(
      playJob({
        projectId: 'demo-project',
        jobId: 'demo-job-1',
        apiKey: 'mint_demo_key_not_a_real_secret',
        activeForMs: 4000,
        final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/128' },
        repository: 'https://github.com/acme/docs',
        ref: 'main'
      })
    )

const inputs: Record<string, string> = server
  ? {
      'project-id': 'demo-project',
      'job-id': 'demo-job-1',
      'api-key': 'mint_demo_key_not_a_real_secret',
      'base-url': server.url,
      // Scaled down so the demo takes seconds: the real defaults are 5s growing to 30s.
      'poll-interval': '500ms',
      'max-poll-interval': '2s'
    }
  : {
      'project-id': process.env['MINTLIFY_PROJECT_ID'] ?? '',
      'job-id': process.env['MINTLIFY_JOB_ID'] ?? '',
      'api-key': process.env['MINTLIFY_API_KEY'] ?? ''
    }

console.log(
  server
    ? `A simulated admin API at ${server.url} plays one agent job: active for about 4 s, then completed with a pull request.`
    : 'Waiting for your real agent job at https://api.mintlify.com.'
)
const debug = process.env['RUNNER_DEBUG'] === '1'
const run = await runAction({ inputs, env: debug ? { RUNNER_DEBUG: '1' } : {} })
await server?.close()

line(`The step's log, as the run page shows it${debug ? '' : ' (RUNNER_DEBUG=1 npm run demo shows debug lines too)'}`)
console.log(renderRunnerLog(run.stdout, { debug }))

line('Outputs (steps.<id>.outputs.*)')
for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}: ${value}`)
line('Job summary (shown on the run page as a table)')
console.log(renderSummaryText(run.summary))
line('Result')
console.log(
  `exit code ${run.exitCode ?? 'none'}: the step ${run.exitCode === 0 ? 'passed' : 'failed'} in ${Math.round(run.durationMs)} ms`
)
if (server) console.log(`the simulated API answered ${server.requests.length} polls`)
process.exitCode = run.exitCode ?? 1
