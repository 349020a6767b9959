import type { Dispatcher } from 'undici'
import { exchange, type Headers } from './http.ts'
import { type AgentJob, type JobExpectations, parseJob } from './job.ts'
import { type Redact, redactJson } from './redact.ts'
import { parseRetryAfter } from './retry-after.ts'
import { forLog } from './untrusted-text.ts'

/** A job body is a few hundred bytes; anything near this is not a job, and is not buffered. */
const MAX_BODY_BYTES = 1024 * 1024

/** What one poll learned. */
export type PollResult =
  | { readonly kind: 'job'; readonly job: AgentJob }
  /** Worth trying again later: 5xx, 429, a network error, a timeout, a body that is not a job. */
  | {
      readonly kind: 'transient'
      readonly reason: string
      readonly retryAfterMs?: number
      /** The host name did not resolve: permanent unless the API has answered before. */
      readonly hostNotFound?: boolean
    }
  /** Trying again cannot help: the reason says what to change. */
  | { readonly kind: 'permanent'; readonly reason: string }
  | { readonly kind: 'cancelled' }

interface JobClientOptions extends JobExpectations {
  readonly jobUrl: URL
  readonly apiKey: string
  readonly projectId: string
  /** Replaces the key and the GitHub token in everything the API says, before anything else reads it. */
  readonly redact: Redact
  readonly userAgent: string
  readonly dispatcher: Dispatcher
  /** Aborted when the workflow is cancelled. */
  readonly cancelSignal: AbortSignal
}

/** Reads the job once, within `timeoutMs`. */
export type FetchJob = (timeoutMs: number) => Promise<PollResult>

/** Client errors that a later attempt can outlive: request timeout, too early, rate limited. */
const RETRIABLE_CLIENT_ERRORS = new Set([408, 425, 429])

export function createJobClient(options: JobClientOptions): FetchJob {
  const headers = {
    authorization: `Bearer ${options.apiKey}`,
    accept: 'application/json',
    'user-agent': options.userAgent
  }
  const req = { url: options.jobUrl, method: 'GET', headers } as const
  return async (timeoutMs) => {
    const answer = await exchange(options.dispatcher, req, {
      timeoutMs,
      maxBodyBytes: MAX_BODY_BYTES,
      cancelSignal: options.cancelSignal
    })
    switch (answer.kind) {
      case 'cancelled':
        return { kind: 'cancelled' }
      case 'timeout':
        return { kind: 'transient', reason: `no complete answer within ${timeoutMs}ms (request-timeout)` }
      case 'network':
        return networkFault(answer.code, answer.message)
      case 'answer':
        return classify(answer.status, answer.headers, answer.body, options, Date.now())
    }
  }
}

function classify(
  status: number,
  headers: Headers,
  body: string | undefined,
  options: JobClientOptions,
  nowMs: number
): PollResult {
  if (status === 200) {
    if (body === undefined)
      return { kind: 'transient', reason: `HTTP 200 with a body over ${MAX_BODY_BYTES} bytes, not read` }
    const decoded = decodeJson(body, options.redact)
    if (decoded === NOT_JSON) return { kind: 'transient', reason: 'HTTP 200 with a body that is not JSON' }
    const parsed = parseJob(decoded, options)
    return parsed.kind === 'job'
      ? parsed
      : { kind: 'transient', reason: `HTTP 200 with a body that is not a job: ${parsed.reason}` }
  }

  const detail = errorDetail(body, options.redact)
  const described = `HTTP ${status}${detail}`
  if (status >= 300 && status < 400) {
    const location = headers['location']
    const target = typeof location === 'string' ? ` to ${forLog(options.redact(location))}` : ''
    return {
      kind: 'permanent',
      reason: `The API answered ${described}, a redirect${target}. Redirects are not followed so the API key never travels elsewhere: set base-url to the address that answers directly.`
    }
  }
  if (status === 401 || status === 403) {
    return {
      kind: 'permanent',
      reason: `The API refused the key (${described}). Check that the api-key secret holds a Mintlify admin API key (it starts with "mint_") for this project; admin keys are made on the dashboard's API keys page, under organization settings.`
    }
  }
  if (status === 404) {
    return {
      kind: 'permanent',
      reason: `No agent job "${forLog(options.jobId)}" was found in project "${forLog(options.projectId)}" (${described} from GET ${options.jobUrl.href}). Check job-id (the id the job-creating step returned), project-id (from the dashboard's API keys page), and that base-url is the API's root.`
    }
  }
  if (status >= 400 && status < 500 && !RETRIABLE_CLIENT_ERRORS.has(status)) {
    return { kind: 'permanent', reason: `The API rejected the request (${described}); retrying cannot help.` }
  }
  const retryAfterMs = parseRetryAfter(headers['retry-after'], nowMs)
  const reason = status === 429 ? `rate limited (${described})` : described
  return retryAfterMs === undefined ? { kind: 'transient', reason } : { kind: 'transient', reason, retryAfterMs }
}

const NOT_JSON = Symbol('not JSON')

/** The body's JSON (a leading byte-order mark allowed), with every string redacted; NOT_JSON if it is none. */
function decodeJson(body: string, redact: Redact): unknown {
  try {
    return redactJson(JSON.parse(body.replace(/^\uFEFF/, '')), redact)
  } catch {
    return NOT_JSON
  }
}

/** The API's `{"error": "..."}` message, if the body has one, as a suffix. HTML and other bodies are left out. */
function errorDetail(body: string | undefined, redact: Redact): string {
  const decoded = body === undefined ? undefined : decodeJson(body, redact)
  if (typeof decoded === 'object' && decoded !== null && 'error' in decoded && typeof decoded.error === 'string') {
    return `: ${forLog(decoded.error)}`
  }
  return ''
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset or closed mid-response',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  EAI_AGAIN: 'DNS lookup failed temporarily',
  ENOTFOUND: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ERR_PROXY_TUNNEL: 'the proxy refused the tunnel'
}

function networkFault(code: string | undefined, message: string): PollResult {
  const known = code === undefined ? undefined : NETWORK_ERRORS[code]
  const suffix = code === undefined ? '' : ` (${code})`
  const reason = known ? `${known}${suffix}` : `network error: ${forLog(message)}${suffix}`
  return code === 'ENOTFOUND' ? { kind: 'transient', reason, hostNotFound: true } : { kind: 'transient', reason }
}
