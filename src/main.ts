import packageJson from '../package.json' with { type: 'json' }
import { cancelOnSignals, sleepUnlessCancelled } from './cancellation.ts'
import { formatDuration } from './duration.ts'
import { errorMessage } from './error-message.ts'
import { createHttpClient, supportsProxyEnv } from './http.ts'
import { createJobClient } from './job-client.ts'
import { outputsOf } from './outputs.ts'
import { waitForJob, type WaitResult } from './poller.ts'
import { logProgress } from './progress-log.ts'
import { readSettings, type Settings } from './settings.ts'
import { summaryOf } from './summary.ts'
import { forLog } from './untrusted-text.ts'
import { type Verdict, verdictOf } from './verdict.ts'
import * as runner from './workflow-commands.ts'

export const USER_AGENT = `${packageJson.name}/${packageJson.version}`

/** The action's entry point: never throws; a failure is reported with runner.setFailed. */
export async function run(): Promise<void> {
  let settings: Settings
  try {
    settings = readSettings({ getInput: (name) => runner.getInput(name), setSecret: runner.setSecret, warning: runner.warning })
  } catch (error) {
    runner.setFailed(errorMessage(error))
    return
  }
  const cancelSignal = cancelOnSignals()
  const http = createHttpClient()
  warnIfProxyIgnored()
  try {
    runner.info(
      `Waiting for agent job "${forLog(settings.jobId)}" in project "${forLog(settings.projectId)}" at ${settings.jobUrl.origin} ` +
        `(timeout ${formatDuration(settings.timeoutMs)}, polling every ${formatDuration(settings.pollIntervalMs)} ` +
        `growing to ${formatDuration(settings.maxPollIntervalMs)})`
    )
    const fetchJob = createJobClient({ ...settings, userAgent: USER_AGENT, http, cancelSignal })
    const clock = { now: Date.now, random: Math.random, sleep: (ms: number) => sleepUnlessCancelled(ms, cancelSignal) }
    const result = await waitForJob(fetchJob, settings, clock, logProgress(runner))
    const verdict = verdictOf(result, settings)
    report(result, settings, verdict)
    const commentUrl = settings.comment && result.outcome !== 'cancelled' ? await comment(result, settings, verdict) : ''
    runner.setOutput('comment-url', commentUrl)
    if (verdict.fails) runner.setFailed(verdict.message)
    else runner.info(verdict.message)
  } catch (error) {
    runner.setFailed(`Unexpected error while waiting for the agent job: ${errorMessage(error)}`)
  } finally {
    http.close()
  }
}

function warnIfProxyIgnored(): void {
  const proxy = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].find((name) => process.env[name])
  if (proxy && !supportsProxyEnv()) {
    runner.warning(`${proxy} is set, but Node ${process.version} cannot use it (Node 24.5 or later can): update the runner.`)
  }
}

/** Comments the outcome on the triggering issue or pull request; returns the comment's URL, or '' with a warning. */
async function comment(result: WaitResult, settings: Settings, verdict: Verdict): Promise<string> {
  const { commentOutcome } = await import('./comment.ts')
  const commented = await commentOutcome(result, {
    token: settings.githubToken,
    issueNumber: settings.issueNumber,
    userAgent: USER_AGENT,
    jobId: settings.jobId,
    timeoutMs: settings.timeoutMs,
    message: verdict.message
  })
  if ('warning' in commented) {
    runner.warning(commented.warning)
    return ''
  }
  runner.info(`Commented the outcome: ${commented.url}`)
  return commented.url
}

/** Outputs first (a later step may need them even when this one fails), then the job summary. */
function report(result: WaitResult, settings: Settings, verdict: Verdict): void {
  const outputs = outputsOf(result)
  for (const [name, value] of Object.entries(outputs)) runner.setOutput(name, value)
  const prLink = result.job?.prLink
  if (prLink && outputs.prLink === '') {
    runner.warning(`The API returned a prLink that is not an http(s) URL ("${forLog(prLink, 80)}"); it was dropped.`)
  }
  try {
    runner.appendSummary(summaryOf(result, settings, verdict))
  } catch (error) {
    runner.warning(`Could not write the job summary: ${errorMessage(error)}`)
  }
}
