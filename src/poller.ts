import type { AgentJob, TerminalStatus } from './job.ts'
import { isTerminal } from './job.ts'
import type { PollResult } from './admin-api.ts'
import { faultDelay, pollDelay, type ScheduleOptions } from './schedule.ts'

/** Reads the job once, within `timeoutMs`. */
/** After a follow-up, a job that never shows `active` again is taken as finished after this long. */
export const FOLLOW_UP_SETTLE_MS = 60_000

export type FetchJob = (timeoutMs: number) => Promise<PollResult>

/** Where the wait starts from when the job is known already, e.g. from the answer that started it. */
export interface KnownJob {
  readonly job: AgentJob
  /**
   * After a follow-up the API may still show the job's earlier, finished status for a moment: a finished status
   * then counts only once the job has been seen active, or after this long.
   */
  readonly settleMs?: number
}

export interface PollerOptions extends ScheduleOptions {
  readonly timeoutMs: number
  readonly requestTimeoutMs: number
  /** How often to say the job is still running. */
  readonly heartbeatMs?: number
}

export interface PollerClock {
  readonly now: () => number
  /** Resolves after `ms`, or earlier when the run is cancelled. */
  readonly sleep: (ms: number) => Promise<void>
  readonly random: () => number
}

/** What the poller reports while it waits, for the log. */
export type PollEvent =
  | { readonly kind: 'poll'; readonly result: PollResult; readonly poll: number; readonly tookMs: number }
  | {
      readonly kind: 'status'
      readonly job: AgentJob
      readonly previous: string | undefined
      readonly elapsedMs: number
    }
  | { readonly kind: 'heartbeat'; readonly job: AgentJob; readonly elapsedMs: number; readonly polls: number }
  | { readonly kind: 'fault'; readonly reason: string; readonly consecutive: number; readonly retryInMs: number }

export interface WaitStats {
  readonly polls: number
  readonly elapsedMs: number
  /** The last job the API returned, if any. */
  readonly job: AgentJob | undefined
  /** Polls that failed with a transient fault. */
  readonly faults: number
}

/** How the wait ended: `kind` is the step's `outcome`. */
export type WaitResult = WaitStats &
  (
    | { readonly kind: TerminalStatus }
    /** The deadline passed; `lastFault` says what was failing, if the last poll failed. */
    | { readonly kind: 'timeout'; readonly lastFault: string | undefined; readonly consecutiveFaults: number }
    /** A permanent fault: the reason says what to change. */
    | { readonly kind: 'error'; readonly reason: string }
    /** `reason` when the run was cancelled before the wait began. */
    | { readonly kind: 'cancelled'; readonly reason?: string }
  )

const DEFAULT_HEARTBEAT_MS = 60_000
/** A request started at the deadline still gets this long. */
const LAST_REQUEST_MIN_MS = 1000

/** Polls until the job reaches a terminal status, a permanent fault, the deadline, or cancellation. */
export async function waitForJob(
  fetchJob: FetchJob,
  options: PollerOptions,
  clock: PollerClock,
  onEvent: (event: PollEvent) => void = () => {},
  known?: KnownJob
): Promise<WaitResult> {
  const start = clock.now()
  const deadline = start + options.timeoutMs
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
  let nextHeartbeat = start + heartbeatMs
  let polls = 0
  let faults = 0
  let consecutiveFaults = 0
  let lastFault: string | undefined
  let job: AgentJob | undefined
  const stats = (): WaitStats => ({ polls, elapsedMs: clock.now() - start, job, faults })
  let seenActive = known?.settleMs === undefined
  const settledAt = start + (known?.settleMs ?? 0)
  const ended = (status: string): status is TerminalStatus =>
    isTerminal(status) && (seenActive || clock.now() >= settledAt)

  if (known) {
    job = known.job
    seenActive ||= !isTerminal(job.status)
    onEvent({ kind: 'status', job, previous: undefined, elapsedMs: 0 })
    if (ended(job.status)) return { ...stats(), kind: job.status }
    // The answer that started the job is as good as a first poll: the next one waits its turn.
    await clock.sleep(Math.min(pollDelay(0, options, clock.random), Math.max(deadline - clock.now(), 0)))
  }

  for (;;) {
    const requestTimeout = Math.min(options.requestTimeoutMs, Math.max(deadline - clock.now(), LAST_REQUEST_MIN_MS))
    const pollStart = clock.now()
    const result = await fetchJob(requestTimeout)
    // A request cut short by the cancel (or never made, after it) is no poll.
    if (result.kind === 'cancelled') return { ...stats(), kind: 'cancelled' }
    polls += 1
    const now = clock.now()
    const elapsedMs = now - start
    onEvent({ kind: 'poll', result, poll: polls, tookMs: now - pollStart })

    let delay: number
    switch (result.kind) {
      case 'permanent':
        return { ...stats(), kind: 'error', reason: result.reason }
      case 'job': {
        const previous = job?.status
        job = result.job
        consecutiveFaults = 0
        lastFault = undefined
        if (job.status !== previous) {
          onEvent({ kind: 'status', job, previous, elapsedMs })
          nextHeartbeat = now + heartbeatMs
        }
        seenActive ||= !isTerminal(job.status)
        if (ended(job.status)) return { ...stats(), kind: job.status }
        delay = pollDelay(elapsedMs, options, clock.random)
        break
      }
      case 'transient': {
        if (result.hostNotFound && job === undefined) {
          return {
            ...stats(),
            kind: 'error',
            reason: `The API host could not be found (${result.reason}). Check base-url.`
          }
        }
        faults += 1
        consecutiveFaults += 1
        lastFault = result.reason
        delay = Math.max(
          pollDelay(elapsedMs, options, clock.random),
          faultDelay(consecutiveFaults, options, clock.random)
        )
        if (result.retryAfterMs !== undefined) {
          if (now + result.retryAfterMs > deadline) {
            lastFault = `${result.reason}; the API asked to wait ${Math.ceil(result.retryAfterMs / 1000)}s (Retry-After), past the timeout`
            return { ...stats(), kind: 'timeout', lastFault, consecutiveFaults }
          }
          delay = Math.max(delay, result.retryAfterMs)
        }
        break
      }
    }

    const remaining = deadline - clock.now()
    if (remaining <= 0) return { ...stats(), kind: 'timeout', lastFault, consecutiveFaults }
    delay = Math.min(delay, remaining)
    if (result.kind === 'transient') {
      onEvent({ kind: 'fault', reason: result.reason, consecutive: consecutiveFaults, retryInMs: delay })
    } else if (job !== undefined && now >= nextHeartbeat) {
      onEvent({ kind: 'heartbeat', job, elapsedMs, polls })
      nextHeartbeat = now + heartbeatMs
    }
    await clock.sleep(delay)
  }
}
