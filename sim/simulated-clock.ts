import type { Clock } from '../src/wait/retry.ts'

/** A clock that advances only when slept on, so a 30-minute wait runs in microseconds. */
export interface SimulatedClock extends Clock {
  /** Moves time forward, as a request that takes a while does. */
  advance(ms: number): void
}

/** `cancelled` says whether the run is cancelled; by default it never is. */
export function simulatedClock(random: () => number = Math.random, cancelled = () => false): SimulatedClock {
  let now = 0
  return {
    now: () => now,
    date: () => now,
    sleep: (ms) => {
      now += ms
      return Promise.resolve()
    },
    advance: (ms) => {
      now += ms
    },
    random,
    cancelled
  }
}
