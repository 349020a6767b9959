// The preview of the agent's branch: triggered once the job has completed with a pull request, followed until it
// is built or fails, within what is left of the step's time. Nothing here changes the job's own outcome.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { AdminApi } from '../admin-api/client.ts'
import type { BuildPoll } from '../admin-api/preview-answer.ts'
import { buildEnded, type PreviewBuild } from '../admin-api/preview-build.ts'
import type { Settings } from '../runner/settings/settings.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { StepClock } from './clock.ts'
import { faultDelay, pollDelay } from './poll-schedule.ts'
import { NOT_FOUND_GRACE_MS, requestBudget } from './time-budgets.ts'

/** How the preview ended; `kind` is the `preview-status` output. */
export type PreviewOutcome =
  /** Nothing to preview, or previews are not on the plan: the reason says which. */
  | { readonly kind: 'unavailable'; readonly reason: string }
  | { readonly kind: 'error'; readonly reason: string; readonly url: string | undefined }
  /** Still queued or building when the time ran out (or the run was cancelled). */
  | { readonly kind: 'building'; readonly reason: string; readonly url: string | undefined }
  | { readonly kind: 'success' | 'failure'; readonly url: string | undefined; readonly build: PreviewBuild }

export interface PreviewContext {
  readonly api: Pick<AdminApi, 'triggerPreview' | 'readPreviewBuild'>
  readonly settings: Pick<Settings, 'requestTimeoutMs' | 'pollIntervalMs' | 'maxPollIntervalMs'>
  readonly deadline: number
  readonly clock: StepClock
  readonly log: (message: string) => void
  /** Told the preview's address as soon as the API gives it, before the build ends. */
  readonly building: (url: string | undefined) => void
}

/** Mintlify's published limit for triggering previews. */
const RATE_LIMIT_NOTE = 'Mintlify allows 5 preview deployments a minute per organization.'

/** Why there is nothing to preview, or the branch to build. */
export function previewPlan(
  outcome: string,
  job: AgentJob | undefined
): { readonly kind: 'skip'; readonly reason: string } | { readonly kind: 'build'; readonly branch: string } {
  if (outcome !== 'completed')
    return { kind: 'skip', reason: `the job ended ${outcome}, so there is nothing to preview` }
  if (job?.pr.kind !== 'link')
    return { kind: 'skip', reason: 'the agent changed no files, so there is nothing to preview' }
  if (!job.ref) return { kind: 'skip', reason: 'the API gave no branch for the job (source.ref)' }
  return { kind: 'build', branch: job.ref }
}

export async function buildPreview(branch: string, context: PreviewContext): Promise<PreviewOutcome> {
  context.log(`Triggering the preview of branch "${forLog(branch)}".`)
  const triggered = await trigger(branch, context)
  if (triggered.kind !== 'triggered') return triggered
  context.building(triggered.url)
  context.log(`The preview will be at ${triggered.url ?? '(no address given)'}; waiting for its build.`)
  return waitForBuild(triggered.statusId, triggered.url, context)
}

type Triggered = { readonly kind: 'triggered'; readonly statusId: string; readonly url: string | undefined }

/** A trigger sent again is a rebuild at worst, so it is sent again after any fault, until the API answers it. */
async function trigger(branch: string, context: PreviewContext): Promise<Triggered | PreviewOutcome> {
  const { clock } = context
  for (let attempt = 1; ; attempt++) {
    const result = await context.api.triggerPreview(
      branch,
      requestBudget(context.settings.requestTimeoutMs, context.deadline, clock.now())
    )
    switch (result.kind) {
      case 'triggered':
        return { kind: 'triggered', statusId: result.statusId, url: result.previewUrl }
      case 'unavailable':
        return { kind: 'unavailable', reason: `previews are not on this organization's plan (${result.reason})` }
      case 'refused':
        return { kind: 'error', reason: `the preview could not be triggered: ${result.reason}`, url: undefined }
      case 'cancelled':
        return { kind: 'error', reason: 'the run was cancelled before the preview was triggered', url: undefined }
      case 'retry': {
        const limit = result.rateLimited ? ` ${RATE_LIMIT_NOTE}` : ''
        const waitMs = Math.max(result.retryAfterMs ?? 0, faultDelay(attempt, context.settings, clock.random))
        if (clock.now() + waitMs > context.deadline) {
          return {
            kind: 'error',
            reason: `the preview could not be triggered before the timeout: ${result.reason}.${limit}`,
            url: undefined
          }
        }
        context.log(
          `Could not trigger the preview: ${result.reason}.${limit} Trying again in ${formatDuration(waitMs)}.`
        )
        await clock.sleep(waitMs)
        if (clock.cancelled())
          return { kind: 'error', reason: 'the run was cancelled before the preview was triggered', url: undefined }
      }
    }
  }
}

/** Why the build is taken as still building when the time ran out: the status last read, or the last fault. */
function unfinishedReason(status: string | undefined, read: BuildPoll): string {
  return status === undefined && read.kind === 'transient'
    ? `its build status could not be read before the timeout ran out (${read.reason})`
    : `it was still ${forLog(status ?? 'queued')} when the timeout ran out`
}

/** Polls the build with the job's backoff until it succeeds or fails, or the time runs out. */
async function waitForBuild(
  statusId: string,
  url: string | undefined,
  context: PreviewContext
): Promise<PreviewOutcome> {
  const { clock } = context
  const start = clock.now()
  let status: string | undefined
  let faults = 0
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
    notFoundSince = read.kind === 'transient' && read.notFound ? (notFoundSince ?? clock.now()) : undefined
    if (read.kind === 'transient' && notFoundSince !== undefined && clock.now() - notFoundSince >= NOT_FOUND_GRACE_MS)
      return {
        kind: 'error',
        reason: `its build status was not found for ${formatDuration(clock.now() - notFoundSince)} (${read.reason})`,
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
