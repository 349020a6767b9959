import { once } from 'node:events'
import { setTimeout as delay } from 'node:timers/promises'

/** Time, passed in: the tests run a 30-minute wait on a simulated clock in microseconds. */
export interface Clock {
  readonly now: () => number
  /** Resolves after `ms`, or earlier when the run is cancelled. */
  readonly sleep: (ms: number) => Promise<void>
  readonly random: () => number
}

export interface StepClock extends Clock {
  readonly cancelled: () => boolean
}

/** The step's own clock, which can also be awaited for the cancel. */
export interface RunClock extends StepClock {
  /** Resolves once the run is cancelled; never rejects. */
  readonly whenCancelled: Promise<void>
}

/** The real clock, whose sleeps end early when the run is cancelled. */
export function stepClock(cancelSignal: AbortSignal): RunClock {
  return {
    now: Date.now,
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
