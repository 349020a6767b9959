// The action's entry point: read the inputs, set up HTTP and cancellation, run the step, and always finish the
// outputs. local-action runs this file; src/index.ts calls run() for the bundle.
import * as core from '@actions/core'
import packageJson from '../package.json' with { type: 'json' }
import { cancelOnSignals, exitCancelledStep } from './runner/cancellation.ts'
import { readRunnerEnvironment } from './runner/environment.ts'
import { coreRunnerIo, type RunnerIo } from './runner/runner-io.ts'
import { readSettings, type Settings } from './runner/settings/settings.ts'
import { inputErrorSummary } from './runner/summary.ts'
import { runStep } from './step/run-step.ts'
import { cancelGraceMs } from './step/time-budgets.ts'
import { createHttp, type Http } from './transport/dispatcher.ts'
import { errorMessage } from './text/error-message.ts'
import { redactor } from './text/redact.ts'
import { forLog } from './text/untrusted-text.ts'

const USER_AGENT = `${packageJson.name}/${packageJson.version}`

/** Runs the action; never throws: a failure is reported with core.setFailed. */
export async function run(): Promise<void> {
  const environment = readRunnerEnvironment()
  const runner = coreRunnerIo(environment.summaryPath)
  let settings: Settings
  let http: Http
  try {
    settings = readSettings(core)
  } catch (error) {
    await cannotStart(runner, errorMessage(error))
    return
  }
  try {
    http = createHttp(environment.proxies)
  } catch (error) {
    await cannotStart(runner, errorMessage(error), "the runner's proxy setting cannot be used")
    return
  }
  const redact = redactor([settings.apiKey, settings.githubToken])
  const cancelSignal = cancelOnSignals(cancelGraceMs(settings.comment))
  const transport = { dispatcher: http.dispatcher, userAgent: USER_AGENT, redact, cancelSignal }
  try {
    await runStep(settings, { transport, environment, runner })
  } catch (error) {
    runner.outputs.set('outcome', 'error')
    runner.fail(`Unexpected error: ${forLog(redact(errorMessage(error)), 1000)}`)
  } finally {
    runner.outputs.finish()
    await http.close()
  }
  if (cancelSignal.aborted) exitCancelledStep()
}

/** The step did not start: outcome `error`, every other output empty, a summary of what to fix. */
async function cannotStart(runner: RunnerIo, problems: string, what?: string): Promise<void> {
  runner.outputs.set('outcome', 'error')
  runner.outputs.finish()
  await runner.writeSummary(inputErrorSummary(problems, what))
  runner.fail(problems)
}
