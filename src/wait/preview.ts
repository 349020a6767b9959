// The preview of the agent's branch: triggered once the job has completed with a pull request, and followed until it
// is built or fails, within what is left of the step's time. Nothing here changes the job's own outcome.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { AdminApi } from '../admin-api/client.ts'
import type { PreviewBuild } from '../admin-api/preview-answers.ts'
import { buildEnded } from '../admin-api/preview-answers.ts'
import type { Settings } from '../inputs/settings.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted.ts'
import { type Clock, faultLog, NOT_FOUND_GRACE_MS, retry, type Try } from './retry.ts'

/** How the preview ended; `kind` is the `preview-status` output. */
export type PreviewOutcome =
  /** Nothing to preview, or previews are not on the plan: the reason says which. */
  | { readonly kind: 'unavailable'; readonly reason: string }
  | { readonly kind: 'error'; readonly reason: string; readonly url: string | undefined }
  /** Still queued or building when the time ran out (or the run was cancelled). */
  | { readonly kind: 'building'; readonly reason: string; readonly url: string | undefined }
  | { readonly kind: 'success' | 'failure'; readonly url: string | undefined; readonly build: PreviewBuild }

export interface PreviewWork {
  readonly api: Pick<AdminApi, 'triggerPreview' | 'readPreviewBuild'>
  readonly deadline: number
  readonly clock: Clock
  readonly log: (message: string) => void
  /** Told the preview's address as soon as the API gives it, before the build ends. */
  readonly building: (url: string | undefined) => void
}

/** Why there is nothing to preview, or the branch to build. */
export function previewPlan(
  outcome: string,
  job: AgentJob | undefined
): { readonly kind: 'none'; readonly reason: string } | { readonly kind: 'build'; readonly branch: string } {
  if (outcome !== 'completed')
    return { kind: 'none', reason: `the job ended ${outcome}, so there is nothing to preview` }
  if (job?.pr.kind !== 'link')
    return { kind: 'none', reason: 'the agent opened no pull request, so there is nothing to preview' }
  if (!job.ref) return { kind: 'none', reason: 'the API gave no branch for the job (source.ref)' }
  return { kind: 'build', branch: job.ref }
}

export async function buildPreview(branch: string, settings: Settings, work: PreviewWork): Promise<PreviewOutcome> {
  work.log(`Triggering the preview of branch "${forLog(branch)}".`)
  const triggered = await triggerBuild(branch, settings, work)
  if (triggered.kind !== 'triggered') return triggered
  work.building(triggered.url)
  work.log(`The preview will be at ${triggered.url ?? '(no address given)'}; waiting for its build.`)
  return waitForBuild(triggered.statusId, triggered.url, settings, work)
}

/** Mintlify's published limit for triggering previews. */
const RATE_LIMIT_NOTE = 'Mintlify allows 5 preview deployments a minute per organization.'

type Triggered = { readonly kind: 'triggered'; readonly statusId: string; readonly url: string | undefined }

const CANCELLED_BEFORE_TRIGGER = 'the run was cancelled before the preview was triggered'

/** A trigger sent again is a rebuild at worst, so it is sent again after any fault, until the API answers it. */
async function triggerBuild(
  branch: string,
  settings: Settings,
  work: PreviewWork
): Promise<Triggered | PreviewOutcome> {
  const { clock } = work
  const faults = faultLog(work.log, clock.now)
  const retried = await retry<Triggered | PreviewOutcome>(
    {
      clock,
      deadline: work.deadline,
      schedule: settings,
      requestTimeoutMs: settings.requestTimeoutMs,
      mode: 'send',
      beforeWait: (last, waitMs) => {
        if (last.kind === 'transient')
          faults.fault(
            last.reason,
            `Could not trigger the preview: ${last.reason} Trying again in ${formatDuration(waitMs)}.`
          )
      }
    },
    async (timeoutMs) => {
      const result = await work.api.triggerPreview(branch, timeoutMs)
      switch (result.kind) {
        case 'triggered':
          return done({ kind: 'triggered', statusId: result.statusId, url: result.previewUrl })
        case 'unavailable':
          return done({
            kind: 'unavailable',
            reason: `previews are not on this organization's plan (${result.reason})`
          })
        case 'refused':
          return done({ kind: 'error', reason: `the preview could not be triggered: ${result.reason}`, url: undefined })
        case 'cancelled':
          return done({ kind: 'error', reason: CANCELLED_BEFORE_TRIGGER, url: undefined })
        case 'transient': {
          const limit = result.rateLimited ? ` ${RATE_LIMIT_NOTE}` : ''
          return { kind: 'transient', reason: `${result.reason}.${limit}`, retryAfterMs: result.retryAfterMs }
        }
      }
    }
  )
  faults.end()
  switch (retried.kind) {
    case 'done':
      return retried.value
    case 'cancelled':
      return { kind: 'error', reason: CANCELLED_BEFORE_TRIGGER, url: undefined }
    case 'deadline': {
      const reason = retried.last.kind === 'transient' ? retried.last.reason : ''
      return {
        kind: 'error',
        reason: `the preview could not be triggered before the timeout: ${reason}`,
        url: undefined
      }
    }
  }
}

function done<T>(value: T): Try<T> {
  return { kind: 'done', value }
}

/** Polls the build with the job's backoff until it succeeds or fails, or the time runs out. */
async function waitForBuild(
  statusId: string,
  url: string | undefined,
  settings: Settings,
  work: PreviewWork
): Promise<PreviewOutcome> {
  const build = new BuildReader(statusId, url, work)
  const faults = faultLog(work.log, work.clock.now)
  const retried = await retry<PreviewOutcome>(
    {
      clock: work.clock,
      deadline: work.deadline,
      schedule: settings,
      requestTimeoutMs: settings.requestTimeoutMs,
      mode: 'poll',
      beforeWait: (last, waitMs) => {
        if (last.kind !== 'transient') faults.end()
        else
          faults.fault(
            last.reason,
            `Could not read the preview's build: ${last.reason}; trying again in ${formatDuration(waitMs)}.`
          )
      }
    },
    (timeoutMs) => build.readOnce(timeoutMs)
  )
  faults.end()
  switch (retried.kind) {
    case 'done':
      return retried.value
    case 'cancelled':
      return { kind: 'building', reason: 'the run was cancelled while it built', url }
    case 'deadline':
      return { kind: 'building', reason: build.unfinishedReason(retried.last), url }
  }
}

/** One build, read again and again: the status last read, and how long its status has not been found. */
class BuildReader {
  readonly #statusId: string
  readonly #url: string | undefined
  readonly #work: PreviewWork
  readonly #start: number
  #status: string | undefined
  /** The first 404 since the build was last read: the grace runs from it, through any other fault in between. */
  #notFoundSince: number | undefined

  constructor(statusId: string, url: string | undefined, work: PreviewWork) {
    this.#statusId = statusId
    this.#url = url
    this.#work = work
    this.#start = work.clock.now()
  }

  async readOnce(timeoutMs: number): Promise<Try<PreviewOutcome>> {
    const { clock, log } = this.#work
    const url = this.#url
    const read = await this.#work.api.readPreviewBuild(this.#statusId, timeoutMs)
    if (read.kind === 'cancelled')
      return done({ kind: 'building', reason: 'the run was cancelled while it built', url })
    if (read.kind === 'permanent')
      return done({ kind: 'error', reason: `its build could not be followed: ${read.reason}`, url })
    if (read.kind === 'transient') {
      if (read.notFound) this.#notFoundSince ??= clock.now()
      if (this.#notFoundSince !== undefined && clock.now() - this.#notFoundSince >= NOT_FOUND_GRACE_MS) {
        const since = formatDuration(clock.now() - this.#notFoundSince)
        const reason = `its build status was not found, and not read since, for ${since} (last: ${read.reason})`
        return done({ kind: 'error', reason, url })
      }
      return { kind: 'transient', reason: read.reason, retryAfterMs: read.retryAfterMs }
    }
    this.#notFoundSince = undefined
    if (read.build.status !== this.#status) {
      log(`Preview build: ${forLog(read.build.status)} (after ${formatDuration(clock.now() - this.#start)})`)
    }
    this.#status = read.build.status
    return buildEnded(read.build) ? done({ kind: read.build.status, url, build: read.build }) : { kind: 'pending' }
  }

  /** Why the build is taken as still building when the time ran out: the status last read, or the last fault. */
  unfinishedReason(last: Exclude<Try<PreviewOutcome>, { kind: 'done' }>): string {
    return this.#status === undefined && last.kind === 'transient'
      ? `its build status could not be read before the timeout ran out (${last.reason})`
      : `it was still ${forLog(this.#status ?? 'queued')} when the timeout ran out`
  }
}
