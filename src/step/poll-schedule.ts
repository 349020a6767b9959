export interface ScheduleOptions {
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
export function pollDelay(elapsedMs: number, options: ScheduleOptions, random: () => number): number {
  const base = Math.min(options.maxPollIntervalMs, Math.max(options.pollIntervalMs, elapsedMs * GROWTH))
  return jittered(base, random, JITTER)
}

/**
 * The wait after `consecutiveFaults` failed polls in a row: exponential from `pollIntervalMs`, capped by
 * `maxPollIntervalMs`, with wide jitter so that many runners hitting the same outage spread out.
 */
export function faultDelay(consecutiveFaults: number, options: ScheduleOptions, random: () => number): number {
  const exponent = Math.max(0, consecutiveFaults - 1)
  const base = Math.min(options.maxPollIntervalMs, options.pollIntervalMs * 2 ** Math.min(exponent, 30))
  return jittered(base, random, 0.5)
}
