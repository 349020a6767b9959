import * as core from '@actions/core'
import type { Dispatcher } from 'undici'
import packageJson from '../package.json' with { type: 'json' }
import { cancelOnSignals, sleepUnlessCancelled } from './cancellation.ts'
import { formatDuration } from './duration.ts'
import { errorMessage } from './error-message.ts'
import { createHttp } from './http.ts'
import { createJobClient } from './job-client.ts'
import { INPUT_ERROR_OUTPUTS, outputsOf } from './outputs.ts'
import { pick } from './pick.ts'
import { waitForJob, type WaitResult } from './poller.ts'
import { logProgress } from './progress-log.ts'
import { githubHosts } from './pull-request-link.ts'
import { type Redact, redactor } from './redact.ts'
import { readSettings, type Settings } from './settings.ts'
import { inputErrorSummary, summaryOf } from './summary.ts'
import { forLog } from './untrusted-text.ts'
import { type Verdict, verdictOf } from './verdict.ts'

const USER_AGENT = `${packageJson.name}/${packageJson.version}`

/** The action's entry point: never throws; a failure is reported with core.setFailed. */
export async function run(): Promise<void> {
  let settings: Settings
  try {
    settings = readSettings(core)
  } catch (error) {
    const problems = errorMessage(error)
    for (const [name, value] of Object.entries(INPUT_ERROR_OUTPUTS)) core.setOutput(name, value)
    core.setOutput('comment-url', '')
    await writeSummary(inputErrorSummary(problems))
    core.setFailed(problems)
    return
  }
  const cancelSignal = cancelOnSignals()
  const http = createHttp()
  const redact = redactor([settings.apiKey, settings.githubToken])
  try {
    core.info(
      `Waiting for agent job "${forLog(settings.jobId)}" in project "${forLog(settings.projectId)}" at ${settings.baseUrl.href} ` +
        `(timeout ${formatDuration(settings.timeoutMs)}, polling every ${formatDuration(settings.pollIntervalMs)} ` +
        `growing to ${formatDuration(settings.maxPollIntervalMs)})`
    )
    const fetchJob = createJobClient({
      ...pick(settings, 'jobUrl', 'apiKey', 'projectId', 'jobId'),
      githubHosts: githubHosts(process.env['GITHUB_SERVER_URL']),
      redact,
      userAgent: USER_AGENT,
      dispatcher: http.dispatcher,
      cancelSignal
    })
    const clock = { now: Date.now, random: Math.random, sleep: (ms: number) => sleepUnlessCancelled(ms, cancelSignal) }
    const schedule = pick(settings, 'timeoutMs', 'pollIntervalMs', 'maxPollIntervalMs', 'requestTimeoutMs')
    const result = await waitForJob(fetchJob, schedule, clock, logProgress(core))
    const verdict = verdictOf(result, pick(settings, 'jobId', 'timeoutMs', 'failOn'))
    await report(result, pick(settings, 'jobId', 'projectId'), verdict)
    const commentSettings = pick(settings, 'githubToken', 'issueNumber', 'jobId', 'timeoutMs')
    const commentUrl =
      settings.comment && result.kind !== 'cancelled'
        ? await comment(result, commentSettings, verdict, { dispatcher: http.dispatcher, redact })
        : ''
    core.setOutput('comment-url', commentUrl)
    if (verdict.fails) core.setFailed(verdict.message)
    else core.info(verdict.message)
  } catch (error) {
    core.setFailed(`Unexpected error while waiting for the agent job: ${forLog(redact(errorMessage(error)), 1000)}`)
  } finally {
    await http.close()
  }
}

/**
 * Comments the outcome on the triggering issue or pull request; returns the comment's URL, or '' with a warning.
 * A comment that cannot be made, for any reason, is a warning: it never changes the job's outcome.
 */
async function comment(
  result: WaitResult,
  settings: Pick<Settings, 'githubToken' | 'issueNumber' | 'jobId' | 'timeoutMs'>,
  verdict: Verdict,
  { dispatcher, redact }: { dispatcher: Dispatcher; redact: Redact }
): Promise<string> {
  try {
    const { commentOutcome } = await import('./comment.ts')
    const commented = await commentOutcome(result, {
      token: settings.githubToken,
      issueNumber: settings.issueNumber,
      userAgent: USER_AGENT,
      dispatcher,
      redact,
      debug: core.debug,
      jobId: settings.jobId,
      timeoutMs: settings.timeoutMs,
      message: verdict.message
    })
    if (commented.kind === 'warning') {
      core.warning(commented.warning)
      return ''
    }
    core.info(`Commented the outcome: ${commented.url}`)
    return commented.url
  } catch (error) {
    core.warning(`Could not comment: ${forLog(redact(errorMessage(error)), 500)}`)
    return ''
  }
}

/** Outputs first (a later step may need them even when this one fails), then the job summary. */
async function report(
  result: WaitResult,
  settings: Pick<Settings, 'jobId' | 'projectId'>,
  verdict: Verdict
): Promise<void> {
  for (const [name, value] of Object.entries(outputsOf(result))) core.setOutput(name, value)
  const pr = result.job?.pr
  if (pr?.kind === 'dropped') {
    core.warning(`The API returned a prLink that is not an http(s) URL ("${forLog(pr.text, 80)}"); it was dropped.`)
  }
  await writeSummary(summaryOf(result, settings, verdict))
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
