// Where the admin API is and how the step talks to it: base-url, checked so that the key never crosses a network in
// clear text nor goes to a version path, and how long the step waits and how often it asks.
import { formatDuration } from '../text/duration.ts'
import type { InputReader } from './input-reader.ts'

/** How long the step waits, and how often it asks. */
export interface Timing {
  readonly timeoutMs: number
  /** The first wait between two polls. */
  readonly pollIntervalMs: number
  /** The longest wait between two polls. */
  readonly maxPollIntervalMs: number
  /** The deadline of one HTTP request. */
  readonly requestTimeoutMs: number
}

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i

/** Whether a URL's host name is this machine: `localhost`, `127.x.x.x` or `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOST.test(hostname)
}

/** The admin API's root: https (http only on this machine), no credentials, no query, no version path. */
export function readBaseUrl(reader: InputReader): URL | undefined {
  const text = reader.text('base-url')
  let url: URL
  try {
    url = new URL(text)
  } catch {
    reader.problem(`Input "base-url" must be an absolute URL such as https://api.mintlify.com; got "${text}".`)
    return undefined
  }
  const problem = baseUrlProblem(url)
  if (problem === undefined) return url
  reader.problem(problem)
  return undefined
}

function baseUrlProblem(url: URL): string | undefined {
  const where = `Input "base-url" (${url.href})`
  if (url.username !== '' || url.password !== '') {
    return 'Input "base-url" must not contain credentials: the API key is sent as a bearer token.'
  }
  if (url.search !== '' || url.hash !== '') return `${where} must not have a query or fragment.`
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `${where} must use https://; plain http:// is allowed only for localhost, so the key never crosses a network in clear text.`
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${where} must use https://.`
  if (url.pathname.split('/').some((segment) => /^v\d+$/i.test(segment))) {
    return `${where} must be the API's root, without a version path: the action adds /v2 itself (use https://api.mintlify.com, not https://api.mintlify.com/v2).`
  }
  return undefined
}

/** GitHub-hosted runners end a job after six hours. */
const LONGEST_HOSTED_JOB_MS = 6 * 3_600_000
/** Against a remote API nothing polls, or gives up on a request, sooner than this. */
const SHORTEST_REMOTE_MS = 1000

export function readTiming(reader: InputReader, baseUrl: URL | undefined): Timing {
  const timeoutMs = reader.duration('timeout')
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
  const pollIntervalMs = reader.duration('poll-interval')
  const maxPollIntervalMs = reader.duration('max-poll-interval')
  const requestTimeoutMs = reader.duration('request-timeout')
  if (pollIntervalMs > maxPollIntervalMs) {
    reader.problem(
      `Input "poll-interval" (${formatDuration(pollIntervalMs)}) must not exceed "max-poll-interval" (${formatDuration(maxPollIntervalMs)}).`
    )
  }
  const timing = { timeoutMs, pollIntervalMs, maxPollIntervalMs, requestTimeoutMs }
  if (baseUrl && !isLoopbackHost(baseUrl.hostname)) checkRemoteTiming(reader, timing)
  return timing
}

/**
 * Refuses intervals under a second against a remote API: they would flood it, and a request deadline that short makes
 * every start "may or may not have worked". A loopback base-url (a local simulator) accepts any.
 */
function checkRemoteTiming(reader: InputReader, timing: Timing): void {
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
