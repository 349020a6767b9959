// The action's entry point: read the inputs, set up HTTP and cancellation, run the step, and always finish the
// outputs. local-action runs this file; src/index.ts calls run() for the bundle.
import * as core from '@actions/core'
import { eventProblem } from './inputs/mode-settings.ts'
import { readSettings, type Settings } from './inputs/settings.ts'
import { cancelOnSignals, exitCancelledStep, readRunnerEnvironment } from './runner/environment.ts'
import { coreRunnerIo } from './runner/io.ts'
import { runStep } from './step.ts'
import { type OpenTransport, openTransport } from './transport/transport.ts'
import { errorMessage } from './text/untrusted.ts'
import { cancelGraceMs } from './wait/retry.ts'

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
  const wrongEvent = eventProblem(settings, environment.eventName, environment.repository)
  if (wrongEvent !== undefined) {
    await runner.cannotStart(wrongEvent, 'the mode does not go with this event')
    return
  }
  const cancel = cancelOnSignals(cancelGraceMs(settings.githubUse.comment), () => runner.cutShort())
  try {
    const secrets = [settings.apiKey, settings.githubToken, settings.docsToken]
    opened = openTransport(secrets, environment.proxies, cancel.signal, settings.requestTimeoutMs)
  } catch (error) {
    await runner.cannotStart(errorMessage(error), "the runner's proxy setting cannot be used")
    return
  }
  const { transport } = opened
  try {
    await runStep(settings, { transport, environment, runner, cancel })
  } catch (error) {
    runner.failUnexpected(error, transport.redact)
  } finally {
    runner.outputs.finish()
    await opened.close()
  }
  if (cancel.signal.aborted) exitCancelledStep()
}
