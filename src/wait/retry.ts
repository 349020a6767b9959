// Time, and trying again: the step's clock (passed in, so the tests run a 30-minute wait on a simulated clock), how
// long each part of the step may take, the polling schedule, and the one loop that every wait and every request sent
// again goes through: a budget for each try, backoff, the deadline, the cancel.
import { once } from 'node:events'
import { setTimeout as delay } from 'node:timers/promises'
import { formatDuration } from '../text/duration.ts'

export interface Clock {
  /**
   * Milliseconds on a monotonic clock, for deadlines and durations: the wall clock may jump (an NTP correction), this
   * one never does. Its zero means nothing.
   */
  readonly now: () => number
  /** Milliseconds since the epoch, for what is recorded for another run to read. */
  readonly date: () => number
  /** Resolves after `ms`, or earlier when the run is cancelled. */
  readonly sleep: (ms: number) => Promise<void>
  readonly random: () => number
  readonly cancelled: () => boolean
}

/** The step's own clock, which can also be awaited for the cancel. */
export interface StepClock extends Clock {
  /** Resolves once the run is cancelled; never rejects. */
  readonly whenCancelled: Promise<void>
}

/** The real clock, whose sleeps end early when the run is cancelled. */
export function stepClock(cancelSignal: AbortSignal): StepClock {
  return {
    now: () => performance.now(),
    date: () => Date.now(),
    random: Math.random,
    sleep: (ms) => sleepUnlessCancelled(ms, cancelSignal),
    cancelled: () => cancelSignal.aborted,
    whenCancelled: cancelSignal.aborted ? Promise.resolve() : once(cancelSignal, 'abort').then(() => undefined)
  }
}

/** Sleeps `ms`, or less when the signal aborts first. Never rejects. */
async function sleepUnlessCancelled(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal })
  } catch {
    // aborted: the caller sees the signal
  }
}

/**
 * Everything one piece of GitHub work does (reading the tracking comments, or writing one) ends within this. After
 * the job ends, the comment holds the runner no longer than this in all.
 */
export const GITHUB_DEADLINE_MS = 60_000
/**
 * The tracking comment's edit after a cancellation must fit in the time the runner leaves (7.5 s from its first
 * signal to its second): the comment's pending write (the record of a request, when the cancel came while it was
 * written) and the edit that withdraws that record share it.
 */
export const CANCELLED_COMMENT_DEADLINE_MS = 4000
/** Less time than this left for an edit is not worth a request. */
export const MIN_COMMENT_TIME_MS = 1000
/** After a cancellation, what is left (outputs, summary) takes milliseconds; editing a comment takes longer. */
const CANCEL_GRACE_MS = 800
/**
 * What is left once the report's GitHub work is done or given up (the verdict's line, the outputs not set yet, the
 * connections closed) takes less than this: after a cancel, that work stops this long before the step must end.
 */
export const LAST_WORDS_MS = 300
/** After a cancel, the comment's last edit gives up this long before the step must end, and says so first. */
export const COMMENT_GIVES_UP_MS = 500
/** After a follow-up, a job that never shows `active` again is taken as finished after this long. */
export const FOLLOW_UP_SETTLE_MS = 60_000
/** A job or build status this step has just asked for may answer 404 for this long before it can be read. */
export const NOT_FOUND_GRACE_MS = 30_000
/**
 * Before base-url has answered once, connection faults (refused, unreachable) are tried again for this long, or to
 * the timeout if that is sooner; then the step says that base-url cannot be reached. Once it has answered, an outage
 * is waited out to the timeout.
 */
export const UNREACHED_WINDOW_MS = 60_000
/** A request started at the deadline still gets this long. */
const LAST_REQUEST_MIN_MS = 1000

/** How long the step may take to finish after a cancellation: longer when it has a comment to edit. */
export function cancelGraceMs(comment: boolean): number {
  return CANCEL_GRACE_MS + (comment ? CANCELLED_COMMENT_DEADLINE_MS : 0)
}

/** The deadline of one request to the admin API: request-timeout, or what is left of the step's time. */
export function requestBudget(requestTimeoutMs: number, deadline: number, now: number): number {
  // Whole milliseconds: a monotonic clock's are fractional, and timers and messages want whole ones.
  return Math.round(Math.min(requestTimeoutMs, Math.max(deadline - now, LAST_REQUEST_MIN_MS)))
}

export interface Schedule {
  /** The first wait between two polls. */
  readonly pollIntervalMs: number
  /** The longest wait between two polls. */
  readonly maxPollIntervalMs: number
}

/**
 * The wait grows with the time already waited, so the delay in noticing the job's end stays a small, bounded
 * fraction of how long the job ran, while a long job costs few requests.
 */
export const GROWTH = 0.2
/** Jitter only shortens a wait, so no bound above is ever exceeded. */
const JITTER = 0.1

function jittered(ms: number, random: () => number, jitter: number): number {
  return ms * (1 - jitter * random())
}

/** The wait before the next poll after a successful one, `elapsedMs` after the first poll. */
export function pollDelay(elapsedMs: number, schedule: Schedule, random: () => number): number {
  const base = Math.min(schedule.maxPollIntervalMs, Math.max(schedule.pollIntervalMs, elapsedMs * GROWTH))
  return jittered(base, random, JITTER)
}

/**
 * The wait after `consecutiveFaults` failed tries in a row: exponential from `pollIntervalMs`, capped by
 * `maxPollIntervalMs`, with wide jitter so that many runners hitting the same outage spread out.
 */
export function faultDelay(consecutiveFaults: number, schedule: Schedule, random: () => number): number {
  const exponent = Math.max(0, consecutiveFaults - 1)
  const base = Math.min(schedule.maxPollIntervalMs, schedule.pollIntervalMs * 2 ** Math.min(exponent, 30))
  return jittered(base, random, 0.5)
}

/** What one try learned. */
export type Try<T> =
  /** The loop is over, with this value (which may say that the try was cancelled, or that it cannot go on). */
  | { readonly kind: 'done'; readonly value: T }
  /** A success that is not the end yet (the job is still active): poll again in a while. */
  | { readonly kind: 'pending' }
  /** Worth trying again after the backoff, and never sooner than the `Retry-After` the answer asked for. */
  | { readonly kind: 'transient'; readonly reason: string; readonly retryAfterMs?: number | undefined }

export type Retried<T> =
  | { readonly kind: 'done'; readonly value: T; readonly tries: number }
  /** The deadline came first. `waitMs` is the wait that would have passed it, when one did. */
  | {
      readonly kind: 'deadline'
      readonly last: Exclude<Try<T>, { kind: 'done' }>
      readonly tries: number
      readonly waitMs: number | undefined
    }
  | { readonly kind: 'cancelled'; readonly tries: number }

export interface RetryOptions {
  readonly clock: Clock
  /** When the step's time runs out (on `clock.now()`'s scale). */
  readonly deadline: number
  readonly schedule: Schedule
  readonly requestTimeoutMs: number
  /**
   * `poll`: the wait grows with the time already waited, and the last try is made at the deadline. `send` (a request
   * sent again): only the backoff, and a wait that would pass the deadline is not begun.
   */
  readonly mode: 'poll' | 'send'
  /** Told before each wait: what the try learned, how long the wait is, and how many faults in a row. */
  readonly beforeWait?: (last: Exclude<Try<unknown>, { kind: 'done' }>, waitMs: number, consecutive: number) => void
}

/** Tries `once` (each within its share of the time left) until it is done, the deadline passes, or the run is cancelled. */
export async function retry<T>(
  options: RetryOptions,
  once: (timeoutMs: number, tryNumber: number) => Promise<Try<T>>
): Promise<Retried<T>> {
  const { clock, deadline, schedule, mode } = options
  const start = clock.now()
  let consecutive = 0
  for (let tries = 1; ; tries++) {
    const result = await once(requestBudget(options.requestTimeoutMs, deadline, clock.now()), tries)
    if (result.kind === 'done') return { kind: 'done', value: result.value, tries }
    consecutive = result.kind === 'transient' ? consecutive + 1 : 0
    const now = clock.now()
    const asked = result.kind === 'transient' ? result.retryAfterMs : undefined
    const backoff = consecutive > 0 ? faultDelay(consecutive, schedule, clock.random) : 0
    const grown = mode === 'poll' ? pollDelay(now - start, schedule, clock.random) : 0
    const waitMs = Math.max(grown, backoff, asked ?? 0)
    const left = deadline - now
    if (mode === 'send' && waitMs > left) return { kind: 'deadline', last: result, tries, waitMs }
    const askedTooMuch = asked !== undefined && asked > left
    if (mode === 'poll' && (left <= 0 || askedTooMuch)) {
      return { kind: 'deadline', last: result, tries, waitMs: askedTooMuch ? asked : undefined }
    }
    const sleep = Math.min(waitMs, left)
    options.beforeWait?.(result, sleep, consecutive)
    await clock.sleep(sleep)
    if (clock.cancelled()) return { kind: 'cancelled', tries }
  }
}

/** While one fault repeats, its count is told this often at most. */
export const REPEATS_TOLD_EVERY_MS = 60_000

/** Faults before retries, told in few lines: an unreachable address tried every second is not sixty lines a minute. */
export interface FaultLog {
  /** A fault before a retry: `line` is told when the fault is new; a repeat of the one before is only counted. */
  readonly fault: (reason: string, line: string) => void
  /** The faults are over (an answer came, or the loop ended): the count of the repeats not told yet, if any. */
  readonly end: () => void
}

/**
 * What makes two faults the same: their words, without the ids a gateway puts in each answer (a request id, a trace
 * id: four digits or more, or a run of hex and dashes with a digit in it). A status code keeps its three digits.
 */
function faultKind(reason: string): string {
  return reason.replace(/(?<![0-9a-z])(?=[0-9a-f-]*\d)[0-9a-f][0-9a-f-]{7,}(?![0-9a-z])|\d{4,}/gi, '…')
}

/**
 * A fault is told when it is new (the first, or another than the one before); its repeats are counted, and the count
 * is told when they end (another fault, an answer, the loop's end) and once a minute while they last.
 */
export function faultLog(log: (line: string) => void, now: () => number): FaultLog {
  let run: { readonly reason: string; readonly kind: string; since: number; repeats: number } | undefined
  const tellRepeats = (at: number): void => {
    if (run === undefined || run.repeats === 0) return
    const times = run.repeats === 1 ? 'time' : 'times'
    log(`Failed the same way ${run.repeats} more ${times} in ${formatDuration(at - run.since)}: ${run.reason}`)
    run.since = at
    run.repeats = 0
  }
  return {
    fault: (reason, line) => {
      const at = now()
      const kind = faultKind(reason)
      if (run?.kind === kind) {
        run.repeats += 1
        if (at - run.since >= REPEATS_TOLD_EVERY_MS) tellRepeats(at)
        return
      }
      tellRepeats(at)
      run = { reason, kind, since: at, repeats: 0 }
      log(line)
    },
    end: () => {
      tellRepeats(now())
      run = undefined
    }
  }
}
