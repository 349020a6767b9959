// Polling the job until it ends, with backoff: the delay in noticing the end stays a small fraction of how long the
// job ran, faults are retried with growing waits (and never sooner than Retry-After), and the deadline holds.
import type { AgentJob } from '../admin-api/agent-job.ts'
import { unreachedBaseUrl } from '../admin-api/answer.ts'
import type { FaultKind, PollResult } from '../admin-api/job-answers.ts'
import type { Settings } from '../inputs/settings.ts'
import { isTerminal, type TerminalStatus } from '../text/outcome.ts'
import { type Clock, retry, type Try, UNREACHED_WINDOW_MS } from './retry.ts'

/** Reads the job once, within `timeoutMs`. */
export type FetchJob = (timeoutMs: number) => Promise<PollResult>

export interface WaitOptions {
  /** The polling schedule and each request's deadline. */
  readonly settings: Settings
  readonly fetchJob: FetchJob
  readonly clock: Clock
  /** When the step started: every elapsed time is counted from it. */
  readonly startedAt: number
  /** When the step's time runs out. */
  readonly deadline: number
  /** How often to say the job is still running. */
  readonly heartbeatMs?: number
  readonly onEvent?: (event: PollEvent) => void
  /** The job as the answer that started (or followed) it gave it: as good as a first poll. */
  readonly known?: AgentJob | undefined
  /**
   * After a follow-up the API may still show the job's earlier, finished status for a moment: a finished status
   * then counts only once the job has been seen active, or after this long.
   */
  readonly settleMs?: number | undefined
  /** For a job this step has just started or followed up: it may answer 404 for this long before it can be read. */
  readonly notFoundGraceMs?: number | undefined
}

/** What the wait reports while it goes on, for the log. */
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
    /** The deadline passed; `lastFault` says what was failing, if the last poll failed, and `lastFaultKind` its kind. */
    | {
        readonly kind: 'timeout'
        readonly lastFault: string | undefined
        readonly lastFaultKind: FaultKind | undefined
        readonly consecutiveFaults: number
      }
    /** A permanent fault: the reason says what to change. */
    | { readonly kind: 'error'; readonly reason: string }
    /**
     * `reason` when the run was cancelled before the wait began; `nothingSent` when that was before the prompt was
     * sent.
     */
    | { readonly kind: 'cancelled'; readonly reason?: string; readonly nothingSent?: boolean }
  )

const DEFAULT_HEARTBEAT_MS = 60_000

type Ended =
  { readonly kind: TerminalStatus } | { readonly kind: 'error'; readonly reason: string } | { kind: 'cancelled' }

/** Polls until the job reaches a terminal status, a permanent fault, the deadline, or cancellation. */
export async function waitForJob(options: WaitOptions): Promise<WaitResult> {
  return new JobWait(options).run()
}

class JobWait {
  readonly #options: WaitOptions
  readonly #clock: Clock
  /** When the step started, not the wait: the time the step has taken is told from it. */
  readonly #start: number
  /** When the wait began: a job just started or followed up gets its grace from then. */
  readonly #waitStart: number
  readonly #heartbeatMs: number
  readonly #settledAt: number
  #nextHeartbeat: number
  #seenActive: boolean
  #known: AgentJob | undefined
  #polls = 0
  readonly #faults: Faults
  #job: AgentJob | undefined

  constructor(options: WaitOptions) {
    this.#options = options
    this.#clock = options.clock
    this.#start = options.startedAt
    this.#waitStart = this.#clock.now()
    this.#heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
    this.#nextHeartbeat = this.#waitStart + this.#heartbeatMs
    this.#seenActive = options.settleMs === undefined
    this.#settledAt = this.#waitStart + (options.settleMs ?? 0)
    this.#known = options.known
    this.#faults = new Faults(options.clock, options.settings)
  }

  async run(): Promise<WaitResult> {
    const retried = await retry(
      {
        clock: this.#clock,
        deadline: this.#options.deadline,
        schedule: this.#options.settings,
        requestTimeoutMs: this.#options.settings.requestTimeoutMs,
        mode: 'poll',
        beforeWait: (last, waitMs, consecutive) => {
          this.#beforeWait(last, waitMs, consecutive)
        }
      },
      (timeoutMs) => this.#pollOnce(timeoutMs)
    )
    switch (retried.kind) {
      case 'done':
        return { ...this.#stats(), ...retried.value }
      case 'cancelled':
        return { ...this.#stats(), kind: 'cancelled' }
      case 'deadline':
        return { ...this.#stats(), ...this.#faults.atDeadline(retried.waitMs) }
    }
  }

  #stats(): WaitStats {
    const faults = this.#faults.count
    return { polls: this.#polls, elapsedMs: this.#clock.now() - this.#start, job: this.#job, faults }
  }

  #ended(status: string): status is TerminalStatus {
    return isTerminal(status) && (this.#seenActive || this.#clock.now() >= this.#settledAt)
  }

  async #pollOnce(timeoutMs: number): Promise<Try<Ended>> {
    const known = this.#known
    if (known) {
      // The answer that started the job is as good as a first poll: the next one waits its turn.
      this.#known = undefined
      this.#job = known
      this.#seenActive ||= !isTerminal(known.status)
      this.#options.onEvent?.({ kind: 'status', job: known, previous: undefined, elapsedMs: 0 })
      return this.#ended(known.status) ? { kind: 'done', value: { kind: known.status } } : { kind: 'pending' }
    }
    const pollStart = this.#clock.now()
    const result = await this.#options.fetchJob(timeoutMs)
    // A request cut short by the cancel (or never made, after it) is no poll.
    if (result.kind === 'cancelled') return { kind: 'done', value: { kind: 'cancelled' } }
    this.#polls += 1
    const now = this.#clock.now()
    this.#options.onEvent?.({ kind: 'poll', result, poll: this.#polls, tookMs: now - pollStart })
    switch (result.kind) {
      case 'permanent': {
        // A key refused once the API had answered this step stopped working while the job ran.
        const reason = this.#job !== undefined && result.midRun !== undefined ? result.midRun : result.reason
        return { kind: 'done', value: { kind: 'error', reason } }
      }
      case 'not found':
        return this.#afterNotFound(result, now)
      case 'job':
        return this.#afterJob(result.job, now)
      case 'transient':
        return this.#afterFault(result, pollStart)
    }
  }

  /** A job this step has just started or followed up may not be readable for a moment: that 404 is waited out. */
  #afterNotFound(result: PollResult & { kind: 'not found' }, now: number): Try<Ended> {
    const grace = this.#options.notFoundGraceMs
    if (grace === undefined) return { kind: 'done', value: { kind: 'error', reason: result.reason } }
    if (now - this.#waitStart >= grace) return { kind: 'done', value: { kind: 'error', reason: result.sinceAccepted } }
    return this.#afterFault({
      kind: 'transient',
      reason: `${result.described}, as a job just started or followed up may answer for a moment`,
      fault: 'not found'
    })
  }

  #afterJob(job: AgentJob, now: number): Try<Ended> {
    const previous = this.#job?.status
    this.#job = job
    this.#faults.cleared()
    if (job.status !== previous) {
      this.#options.onEvent?.({ kind: 'status', job, previous, elapsedMs: now - this.#start })
      this.#nextHeartbeat = now + this.#heartbeatMs
    }
    this.#seenActive ||= !isTerminal(job.status)
    return this.#ended(job.status) ? { kind: 'done', value: { kind: job.status } } : { kind: 'pending' }
  }

  #afterFault(fault: PollResult & { kind: 'transient' }, at = this.#clock.now()): Try<Ended> {
    if (fault.hostNotFound !== undefined && this.#job === undefined) {
      return { kind: 'done', value: { kind: 'error', reason: fault.hostNotFound } }
    }
    const unreached = this.#faults.met(fault, at)
    if (unreached !== undefined) return { kind: 'done', value: { kind: 'error', reason: unreached } }
    return { kind: 'transient', reason: fault.reason, retryAfterMs: fault.retryAfterMs }
  }

  /** Says what failed, or that the job is still running when it has been a while. */
  #beforeWait(last: Exclude<Try<unknown>, { kind: 'done' }>, waitMs: number, consecutive: number): void {
    const now = this.#clock.now()
    if (last.kind === 'transient') {
      this.#options.onEvent?.({ kind: 'fault', reason: last.reason, consecutive, retryInMs: waitMs })
    } else if (this.#job !== undefined && this.#polls > 0 && now >= this.#nextHeartbeat) {
      this.#options.onEvent?.({ kind: 'heartbeat', job: this.#job, elapsedMs: now - this.#start, polls: this.#polls })
      this.#nextHeartbeat = now + this.#heartbeatMs
    }
  }
}

/** How a wait ends at its deadline: base-url never reached, or a timeout with the faults it met last. */
type DeadlineEnd =
  | { readonly kind: 'error'; readonly reason: string }
  | {
      readonly kind: 'timeout'
      readonly lastFault: string | undefined
      readonly lastFaultKind: FaultKind | undefined
      readonly consecutiveFaults: number
    }

/** The faults a wait met: how many, how many in a row, the last one, and since when base-url could not be reached. */
class Faults {
  readonly #clock: Clock
  readonly #settings: Settings
  #count = 0
  #consecutive = 0
  #last: { readonly reason: string; readonly kind: FaultKind; readonly unreached?: string | undefined } | undefined
  /** When base-url, which has never answered, first could not be reached. */
  #unreachedSince: number | undefined

  constructor(clock: Clock, settings: Settings) {
    this.#clock = clock
    this.#settings = settings
  }

  /** Polls that failed with a transient fault. */
  get count(): number {
    return this.#count
  }

  /** A poll read the job: the faults in a row are over. */
  cleared(): void {
    this.#consecutive = 0
    this.#last = undefined
  }

  /** A transient fault, met at `at`: why the wait ends now (base-url unreached for too long), or undefined. */
  met(fault: PollResult & { kind: 'transient' }, at: number): string | undefined {
    this.#count += 1
    this.#consecutive += 1
    this.#last = { reason: fault.reason, kind: fault.fault, unreached: fault.unreached }
    if (fault.unreached === undefined) return undefined
    this.#unreachedSince ??= at
    return this.#clock.now() - this.#unreachedSince >= UNREACHED_WINDOW_MS ? this.#unreached() : undefined
  }

  /** How the wait ends at its deadline; `waitMs`: how long the last answer asked to wait (Retry-After), if it did. */
  atDeadline(waitMs: number | undefined): DeadlineEnd {
    if (this.#last?.unreached !== undefined) return { kind: 'error', reason: this.#unreached() }
    if (waitMs !== undefined && this.#last) {
      // The answer asked to wait past the timeout.
      const asked = `the API asked to wait ${Math.ceil(waitMs / 1000)}s (Retry-After), past the timeout`
      this.#last = { reason: `${this.#last.reason}; ${asked}`, kind: this.#last.kind }
    }
    const last = this.#last
    return { kind: 'timeout', lastFault: last?.reason, lastFaultKind: last?.kind, consecutiveFaults: this.#consecutive }
  }

  /** base-url has never answered, and could not be reached since #unreachedSince. */
  #unreached(): string {
    const tried = this.#clock.now() - (this.#unreachedSince ?? this.#clock.now())
    return unreachedBaseUrl(this.#settings, this.#last?.unreached ?? '', tried)
  }
}
