// The action's entry point: read the inputs, set up HTTP and cancellation, run the step, and always finish the
// outputs. local-action runs this file; src/index.ts calls run() for the bundle.
import * as core from '@actions/core'
import { cancelOnSignals, exitCancelledStep } from './runner/cancellation.ts'
import { readRunnerEnvironment } from './runner/environment.ts'
import { coreRunnerIo } from './runner/runner-io.ts'
import { readSettings, type Settings } from './runner/settings/settings.ts'
import { runStep } from './step/run-step.ts'
import { cancelGraceMs } from './step/time-budgets.ts'
import { type OpenTransport, openTransport } from './transport/open-transport.ts'
import { errorMessage } from './text/error-message.ts'

/** Runs the action; never throws: a failure is reported with core.setFailed. */
export async function run(): Promise<void> {
  const environment = readRunnerEnvironment()
  const runner = coreRunnerIo(environment.summaryPath)
  let settings: Settings
  let opened: OpenTransport
  try {
    settings = readSettings(core)
  } catch (error) {
    await runner.cannotStart(errorMessage(error))
    return
  }
  const cancelSignal = cancelOnSignals(cancelGraceMs(settings.comment))
  try {
    opened = openTransport([settings.apiKey, settings.githubToken], environment.proxies, cancelSignal)
  } catch (error) {
    await runner.cannotStart(errorMessage(error), "the runner's proxy setting cannot be used")
    return
  }
  const { transport } = opened
  try {
    await runStep(settings, { transport, environment, runner })
  } catch (error) {
    runner.failUnexpected(error, transport.redact)
  } finally {
    runner.outputs.finish()
    await opened.close()
  }
  if (cancelSignal.aborted) exitCancelledStep()
}
