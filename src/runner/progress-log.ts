import type { PollEvent } from '../step/wait-for-job.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { Logger } from './runner-io.ts'
import type { Settings } from './settings/settings.ts'

/** The step's first line: where the API is, which project, and how long and how often it waits. */
export function startLine(
  settings: Pick<Settings, 'baseUrl' | 'projectId' | 'timeoutMs' | 'pollIntervalMs' | 'maxPollIntervalMs'>
): string {
  const { timeoutMs, pollIntervalMs, maxPollIntervalMs } = settings
  return (
    `Mintlify admin API at ${settings.baseUrl.href}, project "${forLog(settings.projectId)}" (timeout ${formatDuration(timeoutMs)}, ` +
    `polling every ${formatDuration(pollIntervalMs)} growing to ${formatDuration(maxPollIntervalMs)})`
  )
}

/** The line before the wait. */
export function waitingLine(jobId: string): string {
  return `Waiting for agent job "${forLog(jobId)}".`
}

/**
 * Turns poller events into a quiet log: one line per status change, a heartbeat while the job stays active,
 * one line per fault; each poll in detail only under debug. Every line starts with our own words.
 */
export function logProgress(logger: Logger): (event: PollEvent) => void {
  const unknownStatuses = new Set<string>()
  return (event) => {
    switch (event.kind) {
      case 'poll': {
        const { result } = event
        const what =
          result.kind === 'job'
            ? `status ${forLog(result.job.status)}`
            : result.kind === 'cancelled'
              ? 'cancelled'
              : forLog(result.reason)
        const ignored =
          result.kind === 'job' && result.job.ignored.length > 0
            ? `; left out ${result.job.ignored.map((field) => forLog(field, 80)).join(', ')}: not the type the API documents`
            : ''
        logger.debug(`Poll ${event.poll}: ${what} (${event.tookMs}ms)${ignored}`)
        return
      }
      case 'status': {
        const prText = event.job.pr.kind === 'link' ? `; pull request ${event.job.pr.url.href}` : ''
        const change =
          event.previous === undefined
            ? ''
            : ` (was ${forLog(event.previous)}, after ${formatDuration(event.elapsedMs)})`
        logger.info(`Job status: ${forLog(event.job.status)}${change}${prText}`)
        if (!event.job.knownStatus && !unknownStatuses.has(event.job.status)) {
          unknownStatuses.add(event.job.status)
          logger.warning(
            `The API reported the status "${forLog(event.job.status)}", which this action does not know: it keeps polling until the job is completed, archived or failed.`
          )
        }
        return
      }
      case 'heartbeat':
        logger.info(`Still ${forLog(event.job.status)} after ${formatDuration(event.elapsedMs)} (${event.polls} polls)`)
        return
      case 'fault':
        logger.info(
          `Poll failed: ${forLog(event.reason)}; retrying in ${formatDuration(event.retryInMs)} (${event.consecutive} in a row)`
        )
        return
    }
  }
}
