// Polling the job until it ends, with backoff: the delay in noticing the end stays a small fraction of how long the
// job ran, faults are retried with growing waits (and never sooner than Retry-After), and the deadline holds.
import { type AgentJob, isTerminal, type TerminalStatus } from '../admin-api/agent-job.ts'
import type { FaultKind, PollResult } from '../admin-api/poll-answer.ts'
import type { Clock } from './clock.ts'
import { faultDelay, pollDelay, type ScheduleOptions } from './poll-schedule.ts'
import { requestBudget } from './time-budgets.ts'

/** Reads the job once, within `timeoutMs`. */
export type FetchJob = (timeoutMs: number) => Promise<PollResult>

export interface WaitOptions extends ScheduleOptions {
  readonly fetchJob: FetchJob
  readonly timeoutMs: number
  readonly requestTimeoutMs: number
  readonly clock: Clock
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
    /** `reason` when the run was cancelled before the wait began. */
    | { readonly kind: 'cancelled'; readonly reason?: string }
  )

const DEFAULT_HEARTBEAT_MS = 60_000

/** Polls until the job reaches a terminal status, a permanent fault, the deadline, or cancellation. */
export async function waitForJob(options: WaitOptions): Promise<WaitResult> {
  return new JobWait(options).run()
}

/** Either the wait is over, or the next poll comes after `delay`. */
type Step = { readonly kind: 'done'; readonly result: WaitResult } | { readonly kind: 'next'; readonly delay: number }

class JobWait {
  readonly #options: WaitOptions
  readonly #clock: Clock
  readonly #start: number
  readonly #deadline: number
  readonly #heartbeatMs: number
  readonly #settledAt: number
  #nextHeartbeat: number
  #seenActive: boolean
  #polls = 0
  #faults = 0
  #consecutiveFaults = 0
  #lastFault: { readonly reason: string; readonly kind: FaultKind } | undefined
  #job: AgentJob | undefined

  constructor(options: WaitOptions) {
    this.#options = options
    this.#clock = options.clock
    this.#start = this.#clock.now()
    this.#deadline = this.#start + options.timeoutMs
    this.#heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS
    this.#nextHeartbeat = this.#start + this.#heartbeatMs
    this.#seenActive = options.settleMs === undefined
    this.#settledAt = this.#start + (options.settleMs ?? 0)
  }

  async run(): Promise<WaitResult> {
    const { known } = this.#options
    if (known) {
      const ended = this.#startFrom(known)
      if (ended) return ended
      // The answer that started the job is as good as a first poll: the next one waits its turn.
      const first = pollDelay(0, this.#options, this.#clock.random)
      await this.#clock.sleep(Math.min(first, Math.max(this.#deadline - this.#clock.now(), 0)))
    }
    for (;;) {
      const step = await this.#pollOnce()
      if (step.kind === 'done') return step.result
      await this.#clock.sleep(step.delay)
    }
  }

  #stats(): WaitStats {
    return { polls: this.#polls, elapsedMs: this.#clock.now() - this.#start, job: this.#job, faults: this.#faults }
  }

  #done(result: WaitResult): Step {
    return { kind: 'done', result }
  }

  #ended(status: string): status is TerminalStatus {
    return isTerminal(status) && (this.#seenActive || this.#clock.now() >= this.#settledAt)
  }

  #startFrom(job: AgentJob): WaitResult | undefined {
    this.#job = job
    this.#seenActive ||= !isTerminal(job.status)
    this.#options.onEvent?.({ kind: 'status', job, previous: undefined, elapsedMs: 0 })
    return this.#ended(job.status) ? { ...this.#stats(), kind: job.status } : undefined
  }

  async #pollOnce(): Promise<Step> {
    const timeoutMs = requestBudget(this.#options.requestTimeoutMs, this.#deadline, this.#clock.now())
    const pollStart = this.#clock.now()
    const result = await this.#options.fetchJob(timeoutMs)
    // A request cut short by the cancel (or never made, after it) is no poll.
    if (result.kind === 'cancelled') return this.#done({ ...this.#stats(), kind: 'cancelled' })
    this.#polls += 1
    const now = this.#clock.now()
    this.#options.onEvent?.({ kind: 'poll', result, poll: this.#polls, tookMs: now - pollStart })
    if (result.kind === 'permanent') return this.#done({ ...this.#stats(), kind: 'error', reason: result.reason })
    if (result.kind === 'not found') return this.#afterNotFound(result, now)
    const step = result.kind === 'job' ? this.#afterJob(result.job, now) : this.#afterFault(result, now)
    return step.kind === 'done' ? step : this.#beforeNextPoll(step.delay, result, now)
  }

  /** A job this step has just started or followed up may not be readable for a moment: that 404 is waited out. */
  #afterNotFound(result: PollResult & { kind: 'not found' }, now: number): Step {
    const grace = this.#options.notFoundGraceMs
    if (grace === undefined) return this.#done({ ...this.#stats(), kind: 'error', reason: result.reason })
    if (now - this.#start >= grace) return this.#done({ ...this.#stats(), kind: 'error', reason: result.sinceAccepted })
    const fault = {
      kind: 'transient',
      reason: `${result.described}, as a job just started or followed up may answer for a moment`,
      fault: 'not found'
    } as const
    const step = this.#afterFault(fault, now)
    return step.kind === 'done' ? step : this.#beforeNextPoll(step.delay, fault, now)
  }

  #afterJob(job: AgentJob, now: number): Step {
    const previous = this.#job?.status
    this.#job = job
    this.#consecutiveFaults = 0
    this.#lastFault = undefined
    if (job.status !== previous) {
      this.#options.onEvent?.({ kind: 'status', job, previous, elapsedMs: now - this.#start })
      this.#nextHeartbeat = now + this.#heartbeatMs
    }
    this.#seenActive ||= !isTerminal(job.status)
    if (this.#ended(job.status)) return this.#done({ ...this.#stats(), kind: job.status })
    return { kind: 'next', delay: pollDelay(now - this.#start, this.#options, this.#clock.random) }
  }

  #afterFault(fault: PollResult & { kind: 'transient' }, now: number): Step {
    if (fault.hostNotFound !== undefined && this.#job === undefined) {
      return this.#done({ ...this.#stats(), kind: 'error', reason: fault.hostNotFound })
    }
    this.#faults += 1
    this.#consecutiveFaults += 1
    this.#lastFault = { reason: fault.reason, kind: fault.fault }
    const { random } = this.#clock
    const delay = Math.max(
      pollDelay(now - this.#start, this.#options, random),
      faultDelay(this.#consecutiveFaults, this.#options, random)
    )
    if (fault.retryAfterMs === undefined) return { kind: 'next', delay }
    if (now + fault.retryAfterMs > this.#deadline) {
      const asked = `the API asked to wait ${Math.ceil(fault.retryAfterMs / 1000)}s (Retry-After), past the timeout`
      this.#lastFault = { reason: `${fault.reason}; ${asked}`, kind: fault.fault }
      return this.#done(this.#timedOut())
    }
    return { kind: 'next', delay: Math.max(delay, fault.retryAfterMs) }
  }

  #timedOut(): WaitResult {
    return {
      ...this.#stats(),
      kind: 'timeout',
      lastFault: this.#lastFault?.reason,
      lastFaultKind: this.#lastFault?.kind,
      consecutiveFaults: this.#consecutiveFaults
    }
  }

  /** Ends the wait at the deadline; otherwise reports the fault or a heartbeat, and says how long to sleep. */
  #beforeNextPoll(delay: number, result: Exclude<PollResult, { kind: 'not found' }>, now: number): Step {
    const remaining = this.#deadline - this.#clock.now()
    if (remaining <= 0) return this.#done(this.#timedOut())
    const sleep = Math.min(delay, remaining)
    if (result.kind === 'transient') {
      const consecutive = this.#consecutiveFaults
      this.#options.onEvent?.({ kind: 'fault', reason: result.reason, consecutive, retryInMs: sleep })
    } else if (this.#job !== undefined && now >= this.#nextHeartbeat) {
      this.#options.onEvent?.({ kind: 'heartbeat', job: this.#job, elapsedMs: now - this.#start, polls: this.#polls })
      this.#nextHeartbeat = now + this.#heartbeatMs
    }
    return { kind: 'next', delay: sleep }
  }
}
