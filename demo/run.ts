// `npm run demo`: the bundled action run exactly as the Actions runner would run it, and what a user would see. By
// default against a local simulated admin API and a simulated GitHub (no account needed): a merged pull request in a
// code repository starts an agent job with `context: auto` (the prompt carries what changed), the tracking comment
// goes on the pull request, and the job completes with a pull request in the docs. With MINTLIFY_API_KEY and
// MINTLIFY_PROJECT_ID set, it uses the real API instead: it starts a job from MINTLIFY_PROMPT, or waits for
// MINTLIFY_JOB_ID.
import { startServer } from '../sim/admin-api.ts'
import { simulateAgentApi } from '../sim/agent-api.ts'
import { startFakeGitHub } from '../sim/github-api.ts'
import { runAction } from '../sim/run-action.ts'
import { renderRunnerLog, renderSummaryText } from '../sim/runner-log.ts'
import { MERGED_PULL_REQUEST, PULL_REQUEST_FILES } from './merged-pull-request.ts'

const real = process.env['MINTLIFY_API_KEY'] !== undefined
const line = (title: string): void => {
  console.log(`\n── ${title} ${'─'.repeat(Math.max(0, 70 - title.length))}`)
}
const PROMPT = 'Update the docs for the change below: the API reference, and a guide section if it needs one.'

const simulated = real
  ? undefined
  : simulateAgentApi({
      projectId: 'demo-project',
      apiKey: 'mint_demo_key_not_a_real_secret',
      run: { activeForMs: 4000, final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/128' } }
    })
const server = simulated ? await startServer(simulated.respond) : undefined
const github = simulated
  ? await startFakeGitHub({ owner: 'acme', repo: 'api', pullFiles: { 42: PULL_REQUEST_FILES } })
  : undefined

const inputs: Record<string, string> = server
  ? {
      'project-id': 'demo-project',
      'api-key': 'mint_demo_key_not_a_real_secret',
      prompt: PROMPT,
      context: 'auto',
      comment: 'true',
      'base-url': server.url,
      // Scaled down so the demo takes seconds: the real defaults are 5s growing to 30s.
      'poll-interval': '500ms',
      'max-poll-interval': '2s'
    }
  : {
      'project-id': process.env['MINTLIFY_PROJECT_ID'] ?? '',
      'api-key': process.env['MINTLIFY_API_KEY'] ?? '',
      ...(process.env['MINTLIFY_PROMPT'] ? { prompt: process.env['MINTLIFY_PROMPT'] } : {}),
      ...(process.env['MINTLIFY_JOB_ID'] ? { 'job-id': process.env['MINTLIFY_JOB_ID'] } : {})
    }

console.log(
  server
    ? `Pull request #42 in acme/api was merged. The workflow asks the Mintlify agent to update the docs, with the prompt\n\n  ${PROMPT}\n\nand context: auto, against a simulated admin API at ${server.url} (the job stays active for about 4 s, then\ncompletes with a pull request in acme/docs) and a simulated GitHub.`
    : 'Using the real Mintlify admin API at https://api.mintlify.com.'
)
const debug = process.env['RUNNER_DEBUG'] === '1'
const run = await runAction({
  inputs,
  // The tests point the demo at the bundle of the sources under test; users run the committed dist/.
  ...(process.env['ACTION_ENTRY'] ? { entry: process.env['ACTION_ENTRY'] } : {}),
  env: {
    ...(debug ? { RUNNER_DEBUG: '1' } : {}),
    ...(github ? { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'acme/api' } : {})
  },
  ...(github ? { eventName: 'pull_request', event: MERGED_PULL_REQUEST } : {})
})
await server?.close()
await github?.close()

line(`The step's log, as the run page shows it${debug ? '' : ' (RUNNER_DEBUG=1 npm run demo shows debug lines too)'}`)
console.log(renderRunnerLog(run.stdout, { debug }))
if (simulated) {
  line('The prompt the admin API received')
  const sent = simulated.posts[0]?.prompt
  console.log(typeof sent === 'string' ? sent : '(none)')
}
line('Outputs (steps.<id>.outputs.*)')
for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}: ${value}`)
line('Job summary (shown on the run page as a table)')
console.log(renderSummaryText(run.summary))
if (github) {
  line('The tracking comment on pull request #42 (Markdown)')
  for (const comment of github.comments) console.log(comment.body)
}
line('Result')
console.log(
  `exit code ${run.exitCode ?? 'none'}: the step ${run.exitCode === 0 ? 'passed' : 'failed'} in ${Math.round(run.durationMs)} ms`
)
if (server && github) {
  const polls = server.requests.filter((request) => request.method === 'GET').length
  console.log(
    `the simulated admin API answered ${server.requests.length} requests (1 to start the job, ${polls} polls); the simulated GitHub ${github.calls.length}`
  )
}
process.exitCode = run.exitCode ?? 1
