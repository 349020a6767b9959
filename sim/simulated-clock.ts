import type { Clock } from '../src/step/clock.ts'

/** A clock that advances only when slept on, so a 30-minute wait runs in microseconds. */
export interface SimulatedClock extends Clock {
  /** Moves time forward, as a request that takes a while does. */
  advance(ms: number): void
}

export function simulatedClock(random: () => number = Math.random): SimulatedClock {
  let now = 0
  return {
    now: () => now,
    sleep: (ms) => {
      now += ms
      return Promise.resolve()
    },
    advance: (ms) => {
      now += ms
    },
    random
  }
}
