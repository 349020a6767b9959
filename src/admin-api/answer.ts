// The parts of an admin API answer that every operation reads alike: its JSON, its job, its error message, the
// refusals that mean the same whatever was asked (a redirect, a refused key), a network failure in words, and how long
// the API asked to wait.
import type { Exchange, Headers } from '../transport/exchange.ts'
import type { Redact } from '../text/redact.ts'
import { forLog } from '../text/untrusted.ts'
import { type AgentJob, identityProblem, isRecord, parseJob, readJobId } from './agent-job.ts'

/** A job body is a few hundred bytes; anything near this is not a job, and is not buffered. */
export const MAX_BODY_BYTES = 1024 * 1024

export type Answer = Exchange & { readonly kind: 'answer' }

/** What an answer is judged against: the request it answers, and what the job in it must be. */
export interface Asked {
  readonly projectId: string
  /** The job the answer must be about; undefined when creating one. */
  readonly jobId: string | undefined
  /** The request's URL, for messages. */
  readonly target: URL
  readonly redact: Redact
  /** Hosts whose pull request URLs give `pr-number` and `pr-repository`. */
  readonly githubHosts: ReadonlySet<string>
  /** What to say when the API's host name does not resolve: it depends on whether base-url was set. */
  readonly hostNotFound: (reason: string) => string
}

export const NOT_JSON = Symbol('not JSON')

/** The body's JSON (a leading byte-order mark allowed), as sent; NOT_JSON if it is none. The one JSON decoder. */
export function decodeJson(body: string): unknown {
  try {
    return JSON.parse(body.replace(/^\uFEFF/, '')) as unknown
  } catch {
    return NOT_JSON
  }
}

type NotAJob = { readonly kind: 'not a job'; readonly reason: string }

/** The 2xx body's JSON, or why it is none. */
function bodyOf(answer: Answer): { readonly kind: 'json'; readonly json: unknown } | NotAJob {
  const { status, body } = answer
  if (body === undefined)
    return { kind: 'not a job', reason: `HTTP ${status} with a body over ${MAX_BODY_BYTES} bytes, not read` }
  const json = decodeJson(body)
  return json === NOT_JSON
    ? { kind: 'not a job', reason: `HTTP ${status} with a body that is not JSON` }
    : { kind: 'json', json }
}

/** The job in a 2xx answer, or why there is none. */
export function jobInAnswer(answer: Answer, asked: Asked): { readonly kind: 'job'; readonly job: AgentJob } | NotAJob {
  const decoded = bodyOf(answer)
  if (decoded.kind !== 'json') return decoded
  const parsed = parseJob(decoded.json, asked)
  return parsed.kind === 'job'
    ? parsed
    : { kind: 'not a job', reason: `HTTP ${answer.status} with a body that is not a job: ${parsed.reason}` }
}

export type Acceptance =
  /** The API acted: `job` when its answer carries one (with a status), else only the job's id. */
  { readonly kind: 'accepted'; readonly jobId: string; readonly job: AgentJob | undefined } | NotAJob

/**
 * What a 2xx answer to a create or follow-up says. The API's description marks no field of a job as required: an
 * answer with a usable id (for a follow-up, no id, or the id it was sent to) means the API acted, status or not.
 */
export function acceptanceIn(answer: Answer, asked: Asked): Acceptance {
  const decoded = bodyOf(answer)
  if (decoded.kind !== 'json') return decoded
  const { json } = decoded
  if (isRecord(json) && json['status'] !== undefined) {
    const found = jobInAnswer(answer, asked)
    return found.kind === 'job' ? { kind: 'accepted', jobId: found.job.id ?? asked.jobId ?? '', job: found.job } : found
  }
  const read = isRecord(json) ? readJobId(json['id'], asked.redact) : { problem: 'the body is not a JSON object' }
  const problem = 'problem' in read ? read.problem : identityProblem(read.id, asked.jobId, asked.redact)
  if (problem !== undefined || 'problem' in read) {
    return { kind: 'not a job', reason: `HTTP ${answer.status} with a body that is not a job: ${problem ?? ''}` }
  }
  return { kind: 'accepted', jobId: read.id ?? asked.jobId ?? '', job: undefined }
}

/**
 * `HTTP 404: Agent job not found`: the status, and the API's `{"error": "..."}` message (with its `details`, as one
 * version of the API's description allows) when it sent one, redacted and shortened.
 */
export function describeAnswer(answer: Answer, redact: Redact): string {
  const decoded = answer.body === undefined ? undefined : decodeJson(answer.body)
  if (!isRecord(decoded) || typeof decoded['error'] !== 'string') return `HTTP ${answer.status}`
  const details = decoded['details']
  const detailText =
    details === undefined || details === null
      ? ''
      : ` (details: ${forLog(redact(typeof details === 'string' ? details : JSON.stringify(details)), 300)})`
  return `HTTP ${answer.status}: ${forLog(redact(decoded['error']))}${detailText}`
}

/** The refusals every operation reads alike: a redirect, a refused key. */
export function refusalOfAnyRequest(answer: Answer, described: string, redact: Redact): string | undefined {
  const { status, headers } = answer
  if (status >= 300 && status < 400) {
    return `The API answered ${described}, a redirect${locationOf(headers, redact)}. Redirects are not followed so the API key never travels elsewhere: set base-url to the address that answers directly.`
  }
  if (status === 401 || status === 403) {
    return `The API refused the key (${described}). Check that the api-key secret holds a Mintlify admin API key (it starts with "mint_") for this project; admin keys are made on the dashboard's API keys page, under organization settings.`
  }
  return undefined
}

function locationOf(headers: Headers, redact: Redact): string {
  const location = headers['location']
  return typeof location === 'string' ? ` to ${forLog(redact(location))}` : ''
}

/** Network failures that happen before a request is sent: connecting was refused, or the name did not resolve. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT'
])

const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset or closed mid-response',
  UND_ERR_SOCKET: 'connection reset or closed mid-response',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  EAI_AGAIN: 'DNS lookup failed temporarily',
  ENOTFOUND: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable'
}

export const PROXY_AUTH_REQUIRED = 407

/**
 * The status a proxy gave instead of opening the tunnel to the API (undici's words for it), if that is what
 * happened: then the request never left the proxy.
 */
export function proxyRefusal(code: string | undefined, message: string): number | undefined {
  const match =
    code === 'UND_ERR_ABORTED' ? /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/.exec(message) : null
  return match ? Number(match[1]) : undefined
}

export function proxyReason(status: number): string {
  return status === PROXY_AUTH_REQUIRED
    ? `the proxy refused to open a tunnel to the API (HTTP 407: proxy authentication required). Put the proxy's user and password in HTTPS_PROXY (http://user:password@proxy:port)`
    : `the proxy could not open a tunnel to the API (HTTP ${status})`
}

/** `connection refused (ECONNREFUSED)`; `message` must be redacted and is shown only for an unknown code. */
export function networkReason(code: string | undefined, message: string): string {
  const known = code === undefined ? undefined : NETWORK_ERRORS[code]
  const suffix = code === undefined ? '' : ` (${code})`
  return known ? `${known}${suffix}` : `network error: ${forLog(message)}${suffix}`
}

/**
 * Reads a `Retry-After` header: a number of seconds or an HTTP date. Returns the wait in milliseconds
 * (never negative), or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number): number | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim()
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - nowMs)
}

/**
 * How long a 429 asks to wait before the quota has room again: its `Retry-After`, or else a reset header, as rate
 * limiters send them (`RateLimit-Reset`, seconds to wait; `X-RateLimit-Reset`, the reset's time in seconds since the
 * epoch, or seconds to wait when that small). Undefined when it says nothing readable.
 */
export function quotaWaitMs(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = parseRetryAfter(headers['retry-after'], nowMs)
  if (retryAfter !== undefined) return retryAfter
  const seconds = (name: string): number | undefined => {
    const value = headers[name]
    const text = (Array.isArray(value) ? value[0] : value)?.trim()
    return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined
  }
  const delta = seconds('ratelimit-reset')
  if (delta !== undefined) return delta * 1000
  const reset = seconds('x-ratelimit-reset')
  if (reset === undefined) return undefined
  // A time since the epoch is past 2001; a smaller number is a number of seconds to wait.
  return reset > 1_000_000_000 ? Math.max(0, reset * 1000 - nowMs) : reset * 1000
}
