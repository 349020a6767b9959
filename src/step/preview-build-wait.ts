// Following a preview's build until it succeeds or fails, or the step's time runs out.
import type { BuildPoll } from '../admin-api/preview-answer.ts'
import { buildEnded } from '../admin-api/preview-build.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted-text.ts'
import { faultDelay, pollDelay } from './poll-schedule.ts'
import type { PreviewContext, PreviewOutcome } from './preview-outcome.ts'
import { NOT_FOUND_GRACE_MS, requestBudget } from './time-budgets.ts'

/** Why the build is taken as still building when the time ran out: the status last read, or the last fault. */
function unfinishedReason(status: string | undefined, read: BuildPoll): string {
  return status === undefined && read.kind === 'transient'
    ? `its build status could not be read before the timeout ran out (${read.reason})`
    : `it was still ${forLog(status ?? 'queued')} when the timeout ran out`
}

/** Polls the build with the job's backoff until it succeeds or fails, or the time runs out. */
export async function waitForBuild(
  statusId: string,
  url: string | undefined,
  context: PreviewContext
): Promise<PreviewOutcome> {
  const { clock } = context
  const start = clock.now()
  let status: string | undefined
  let faults = 0
  /** The first 404 since the build was last read: the grace runs from it, through any other fault in between. */
  let notFoundSince: number | undefined
  for (;;) {
    const read = await context.api.readPreviewBuild(
      statusId,
      requestBudget(context.settings.requestTimeoutMs, context.deadline, clock.now())
    )
    if (read.kind === 'cancelled') return { kind: 'building', reason: 'the run was cancelled while it built', url }
    if (read.kind === 'permanent')
      return { kind: 'error', reason: `its build could not be followed: ${read.reason}`, url }
    const elapsed = clock.now() - start
    let delay = pollDelay(elapsed, context.settings, clock.random)
    if (read.kind === 'build') notFoundSince = undefined
    else if (read.notFound) notFoundSince ??= clock.now()
    if (read.kind === 'transient' && notFoundSince !== undefined && clock.now() - notFoundSince >= NOT_FOUND_GRACE_MS)
      return {
        kind: 'error',
        reason: `its build status was not found, and not read since, for ${formatDuration(clock.now() - notFoundSince)} (last: ${read.reason})`,
        url
      }
    if (read.kind === 'build') {
      faults = 0
      if (read.build.status !== status)
        context.log(`Preview build: ${forLog(read.build.status)} (after ${formatDuration(elapsed)})`)
      status = read.build.status
      if (buildEnded(read.build)) return { kind: read.build.status, url, build: read.build }
    } else {
      faults += 1
      delay = Math.max(delay, faultDelay(faults, context.settings, clock.random), read.retryAfterMs ?? 0)
      context.log(`Could not read the preview's build: ${read.reason}; trying again in ${formatDuration(delay)}.`)
    }
    const left = context.deadline - clock.now()
    if (left <= 0 || (read.kind === 'transient' && (read.retryAfterMs ?? 0) > left)) {
      return { kind: 'building', reason: unfinishedReason(status, read), url }
    }
    await clock.sleep(Math.min(delay, left))
  }
}
