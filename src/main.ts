import * as core from '@actions/core'
import packageJson from '../package.json' with { type: 'json' }
import { cancelOnSignals } from './cancellation.ts'
import { errorMessage } from './error-message.ts'
import { createHttp, type Http } from './http.ts'
import { outputWriter } from './outputs.ts'
import { redactor } from './redact.ts'
import { readSettings, type Settings } from './settings.ts'
import { CANCELLED_COMMENT_DEADLINE_MS, runStep } from './step.ts'
import { inputErrorSummary } from './summary.ts'
import { forLog } from './untrusted-text.ts'

const USER_AGENT = `${packageJson.name}/${packageJson.version}`
/** After a cancellation, what is left (outputs, summary) takes milliseconds; editing a comment takes longer. */
const CANCEL_GRACE_MS = 800

/** The action's entry point: never throws; a failure is reported with core.setFailed. */
export async function run(): Promise<void> {
  const outputs = outputWriter(core.setOutput)
  const cannotStart = async (problems: string, what?: string): Promise<void> => {
    outputs.set('outcome', 'error')
    outputs.finish()
    await writeSummary(inputErrorSummary(problems, what))
    core.setFailed(problems)
  }
  let settings: Settings
  try {
    settings = readSettings(core)
  } catch (error) {
    await cannotStart(errorMessage(error))
    return
  }
  let http: Http
  try {
    http = createHttp()
  } catch (error) {
    await cannotStart(errorMessage(error), "the runner's proxy setting cannot be used")
    return
  }
  const cancelSignal = cancelOnSignals(CANCEL_GRACE_MS + (settings.comment ? CANCELLED_COMMENT_DEADLINE_MS : 0))
  const redact = redactor([settings.apiKey, settings.githubToken])
  try {
    await runStep(settings, {
      userAgent: USER_AGENT,
      dispatcher: http.dispatcher,
      redact,
      cancelSignal,
      outputs,
      writeSummary
    })
  } catch (error) {
    outputs.set('outcome', 'error')
    core.setFailed(`Unexpected error: ${forLog(redact(errorMessage(error)), 1000)}`)
  } finally {
    outputs.finish()
    await http.close()
  }
}

async function writeSummary(html: string): Promise<void> {
  if (!process.env['GITHUB_STEP_SUMMARY']) {
    core.debug('No job summary: GITHUB_STEP_SUMMARY is not set (a runner always sets it).')
    return
  }
  try {
    await core.summary.addRaw(html).write()
  } catch (error) {
    core.warning(`Could not write the job summary: ${errorMessage(error)}`)
  }
}
