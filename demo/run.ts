// `npm run demo`: the bundled action run exactly as the Actions runner would run it, and what a user would see. By
// default against a local simulated admin API and a simulated GitHub (no account needed; see scenario.ts);
// `npm run demo -- pair` plays a code pull request's life with `mode: pair` (see pair.ts), `npm run demo -- batch` a
// daily batch with `mode: batch` (see batch.ts), `npm run demo -- command` requests from comments (see command.ts),
// `npm run demo -- sweep` a weekly sweep of the open agent pull requests (see sweep.ts). With MINTLIFY_API_KEY and
// MINTLIFY_PROJECT_ID set (not empty), `npm run demo` alone uses the real API instead: it starts a job from
// MINTLIFY_PROMPT, or waits for MINTLIFY_JOB_ID. The other stories always play the simulation.
import { runAction } from '../sim/run-action.ts'
import { renderRunnerLog, renderSummaryText } from '../sim/runner-log.ts'
import { showBatchDemo } from './batch.ts'
import { showCommandDemo } from './command.ts'
import { showPairDemo } from './pair.ts'
import { showSweepDemo } from './sweep.ts'
import { DEMO_PROMPT, runDemoScenario } from './scenario.ts'

const story = process.argv[2] ?? 'merged'
const real = (process.env['MINTLIFY_API_KEY'] ?? '') !== '' && story === 'merged'
const STORIES = ['merged', 'pair', 'batch', 'command', 'sweep']
if (!STORIES.includes(story)) {
  console.error(`No demo named "${story}": npm run demo, or npm run demo -- pair, batch, command or sweep.`)
  process.exit(2)
}
const debug = process.env['RUNNER_DEBUG'] === '1'
// The tests point the demo at the bundle of the sources under test; users run the committed dist/.
const entry = process.env['ACTION_ENTRY']
const line = (title: string): void => {
  console.log(`\n── ${title} ${'─'.repeat(Math.max(0, 70 - title.length))}`)
}

if (real) {
  console.log('Using the real Mintlify admin API at https://api.mintlify.com (MINTLIFY_API_KEY is set).')
  const run = await runAction({
    ...(entry ? { entry } : {}),
    inputs: {
      'project-id': process.env['MINTLIFY_PROJECT_ID'] ?? '',
      'api-key': process.env['MINTLIFY_API_KEY'] ?? '',
      ...(process.env['MINTLIFY_PROMPT'] ? { prompt: process.env['MINTLIFY_PROMPT'] } : {}),
      ...(process.env['MINTLIFY_JOB_ID'] ? { 'job-id': process.env['MINTLIFY_JOB_ID'] } : {})
    },
    env: debug ? { RUNNER_DEBUG: '1' } : {}
  })
  line("The step's log")
  console.log(renderRunnerLog(run.stdout, { debug }))
  line('Outputs')
  for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}: ${value}`)
  process.exitCode = run.exitCode ?? 1
} else if (story === 'pair') {
  process.exitCode = await showPairDemo(entry, line)
} else if (story === 'batch') {
  process.exitCode = await showBatchDemo(entry, line)
} else if (story === 'sweep') {
  process.exitCode = await showSweepDemo(entry, line)
} else if (story === 'command') {
  process.exitCode = await showCommandDemo(entry, line)
} else {
  console.log(
    `Pull request #42 in acme/api was merged. The workflow asks the Mintlify agent to update the docs, with the prompt\n\n  ${DEMO_PROMPT}\n\nand context: auto, preview: true and comment: true, against a simulated admin API (the job stays active for\na few seconds, then completes with a pull request in acme/docs, whose preview then builds) and a simulated GitHub.\nThe agent's page names one method acme/api does not have: the grounding check (on by default) finds it.`
  )
  const demo = await runDemoScenario({ ...(entry ? { entry } : {}), debug })
  line(`The step's log, as the run page shows it${debug ? '' : ' (RUNNER_DEBUG=1 npm run demo shows debug lines too)'}`)
  console.log(renderRunnerLog(demo.run.stdout, { debug }))
  line('The prompt the admin API received')
  console.log(demo.prompt)
  line('Outputs (steps.<id>.outputs.*)')
  for (const [name, value] of Object.entries(demo.run.outputs)) console.log(`${name}: ${value}`)
  line('Job summary (shown on the run page as a table)')
  console.log(renderSummaryText(demo.run.summary))
  demo.comments.forEach((body, index) => {
    line(`The tracking comment on pull request #42, version ${index + 1} of ${demo.comments.length} (Markdown)`)
    if (index === 0) console.log('(Its first line, an HTML comment, is the hidden record re-runs and follow-ups read.)')
    console.log(body)
  })
  line('Result')
  const { exitCode, durationMs } = demo.run
  console.log(
    `exit code ${exitCode ?? 'none'}: the step ${exitCode === 0 ? 'passed' : 'failed'} in ${Math.round(durationMs)} ms`
  )
  console.log(
    `the simulated admin API answered ${demo.apiRequests} requests (1 to start the job, ${demo.polls} polls of the job and the preview, 1 to trigger the preview); the simulated GitHub answered ${demo.githubRequests}`
  )
  process.exitCode = exitCode ?? 1
}
