// How long the step waits, and how often it asks.
import { formatDuration, parseDuration } from '../../text/duration.ts'
import type { InputReader } from './input-reader.ts'

export interface Timing {
  readonly timeoutMs: number
  /** The first wait between two polls. */
  readonly pollIntervalMs: number
  /** The longest wait between two polls. */
  readonly maxPollIntervalMs: number
  /** The deadline of one HTTP request. */
  readonly requestTimeoutMs: number
}

/** Node cannot wait longer than this in one timer; a longer one fires at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1
/** GitHub-hosted runners end a job after six hours. */
const LONGEST_HOSTED_JOB_MS = 6 * 3_600_000

function readDuration(reader: InputReader, name: string): number {
  const text = reader.text(name)
  const ms = parseDuration(text)
  if (ms === undefined || ms <= 0) {
    reader.problem(
      `Input "${name}" must be a positive duration such as 500ms, 10s, 5m, 1h, 1m 30s or a number of seconds; got "${text}".`
    )
    return Number.NaN
  }
  if (ms > LONGEST_TIMER_MS) {
    reader.problem(`Input "${name}" (${formatDuration(ms)}) is longer than a timer can hold (about 24.8 days).`)
    return Number.NaN
  }
  return ms
}

/** Against a remote API nothing polls, or gives up on a request, sooner than this. */
const SHORTEST_REMOTE_MS = 1000

/**
 * Refuses intervals under a second against a remote API: they would flood it, and a request deadline that short makes
 * every start "may or may not have worked". A loopback base-url (a local simulator) accepts any.
 */
export function checkRemoteTiming(reader: InputReader, timing: Timing): void {
  for (const [name, ms] of [
    ['poll-interval', timing.pollIntervalMs],
    ['max-poll-interval', timing.maxPollIntervalMs],
    ['request-timeout', timing.requestTimeoutMs]
  ] as const) {
    if (ms < SHORTEST_REMOTE_MS) {
      reader.problem(
        `Input "${name}" (${formatDuration(ms)}) must be at least 1s against a remote API; only a loopback base-url, such as a local simulator, accepts less.`
      )
    }
  }
}

export function readTiming(reader: InputReader): Timing {
  const timeoutMs = readDuration(reader, 'timeout')
  const bare = reader.text('timeout')
  if (/^\d+$/.test(bare) && Number(bare) < 60) {
    // Many read `timeout: 30` as minutes.
    reader.notice(`Input "timeout" is ${bare}, read as ${bare} seconds; write ${bare}m for minutes.`)
  }
  if (timeoutMs > LONGEST_HOSTED_JOB_MS) {
    reader.warning(
      `Input "timeout" (${formatDuration(timeoutMs)}) is longer than a GitHub-hosted runner lets a job run (6h); only a self-hosted runner waits that long.`
    )
  }
  const pollIntervalMs = readDuration(reader, 'poll-interval')
  const maxPollIntervalMs = readDuration(reader, 'max-poll-interval')
  const requestTimeoutMs = readDuration(reader, 'request-timeout')
  if (pollIntervalMs > maxPollIntervalMs) {
    reader.problem(
      `Input "poll-interval" (${formatDuration(pollIntervalMs)}) must not exceed "max-poll-interval" (${formatDuration(maxPollIntervalMs)}).`
    )
  }
  return { timeoutMs, pollIntervalMs, maxPollIntervalMs, requestTimeoutMs }
}
