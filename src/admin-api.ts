// The Mintlify admin API's three agent-job operations: get (polled), create and follow-up. Every answer is
// redacted, decoded and classified here, at the edge; nothing past this file sees raw API text.
import type { Dispatcher } from 'undici'
import { exchange, type Exchange, type Headers, type HttpRequest } from './http.ts'
import { type AgentJob, parseJob } from './job.ts'
import { type Redact, redactJson } from './redact.ts'
import { parseRetryAfter } from './retry-after.ts'
import { forLog } from './untrusted-text.ts'

/** A job body is a few hundred bytes; anything near this is not a job, and is not buffered. */
const MAX_BODY_BYTES = 1024 * 1024

/** What one poll learned. */
export type PollResult =
  | { readonly kind: 'job'; readonly job: AgentJob }
  /** Worth trying again later: 5xx, 429, a network error, a timeout, a body that is not the job. */
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

/**
 * What one create or follow-up learned. These requests change something, so the only ones worth sending again
 * are those the API surely did not act on.
 */
export type SubmitResult =
  /** Accepted: the job as the API returned it. */
  | { readonly kind: 'job'; readonly job: AgentJob }
  /** Surely not acted on (rate limited, connection refused, DNS failed): safe to send again. */
  | {
      readonly kind: 'not sent'
      readonly reason: string
      readonly retryAfterMs?: number
      readonly rateLimited?: boolean
    }
  /** Refused, with the API's own reason; sending it again cannot help. */
  | { readonly kind: 'refused'; readonly reason: string }
  /** It may or may not have reached the API: never sent again. */
  | { readonly kind: 'unknown'; readonly reason: string }
  /** Cancelled while the request was under way: it may or may not have reached the API. */
  | { readonly kind: 'cancelled' }

interface AdminApiOptions {
  /** The API's root, e.g. https://api.mintlify.com. */
  readonly baseUrl: URL
  readonly projectId: string
  readonly apiKey: string
  readonly userAgent: string
  readonly dispatcher: Dispatcher
  /** Replaces the key and the GitHub token in everything the API says, before anything else reads it. */
  readonly redact: Redact
  /** Hosts whose pull request URLs give `pr-number` and `pr-repository`. */
  readonly githubHosts: ReadonlySet<string>
  /** Aborted when the workflow is cancelled. */
  readonly cancelSignal: AbortSignal
}

export interface AdminApi {
  /** `GET /v2/agent/{projectId}/job/{id}`, within `timeoutMs`. */
  getJob(jobId: string, timeoutMs: number): Promise<PollResult>
  /** `POST /v2/agent/{projectId}/job` with the prompt, within `timeoutMs`. */
  createJob(prompt: string, timeoutMs: number): Promise<SubmitResult>
  /** `POST /v2/agent/{projectId}/job/{id}/message` with the prompt, within `timeoutMs`. */
  sendFollowUp(jobId: string, prompt: string, timeoutMs: number): Promise<SubmitResult>
}

/** Client errors that a later attempt can outlive: request timeout, too early, rate limited. */
const RETRIABLE_CLIENT_ERRORS = new Set([408, 425, 429])

/** Network failures that happen before a request is sent: connecting was refused, or the name did not resolve. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'])

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

export function createAdminApi(options: AdminApiOptions): AdminApi {
  const root = options.baseUrl.pathname.replace(/\/+$/, '')
  const url = (...segments: string[]): URL => {
    const target = new URL(options.baseUrl)
    target.pathname = `${root}/v2/agent/${[options.projectId, ...segments].map(encodeURIComponent).join('/')}`
    return target
  }
  const headers = {
    authorization: `Bearer ${options.apiKey}`,
    accept: 'application/json',
    'user-agent': options.userAgent
  }
  const send = (req: HttpRequest, timeoutMs: number): Promise<Exchange> =>
    exchange(options.dispatcher, req, { timeoutMs, maxBodyBytes: MAX_BODY_BYTES, cancelSignal: options.cancelSignal })
  const post = (target: URL, prompt: string, timeoutMs: number): Promise<Exchange> =>
    send(
      {
        url: target,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt })
      },
      timeoutMs
    )

  return {
    getJob: async (jobId, timeoutMs) => {
      const target = url('job', jobId)
      return classifyPoll(await send({ url: target, method: 'GET', headers }, timeoutMs), timeoutMs, {
        ...options,
        jobId,
        target
      })
    },
    createJob: async (prompt, timeoutMs) =>
      classifySubmit(await post(url('job'), prompt, timeoutMs), timeoutMs, {
        ...options,
        what: 'start the agent job',
        jobId: undefined,
        target: url('job')
      }),
    sendFollowUp: async (jobId, prompt, timeoutMs) =>
      classifySubmit(await post(url('job', jobId, 'message'), prompt, timeoutMs), timeoutMs, {
        ...options,
        what: `send the follow-up to agent job "${forLog(jobId)}"`,
        jobId,
        target: url('job', jobId, 'message')
      })
  }
}

interface Context extends AdminApiOptions {
  /** The job the answer must be about; undefined when creating one. */
  readonly jobId: string | undefined
  readonly target: URL
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

/** The job in a 2xx body, or why there is none. */
function jobIn(body: string | undefined, status: number, context: Context): PollResult & { kind: 'job' | 'transient' } {
  if (body === undefined)
    return { kind: 'transient', reason: `HTTP ${status} with a body over ${MAX_BODY_BYTES} bytes, not read` }
  const decoded = decodeJson(body, context.redact)
  if (decoded === NOT_JSON) return { kind: 'transient', reason: `HTTP ${status} with a body that is not JSON` }
  const parsed = parseJob(decoded, context)
  return parsed.kind === 'job'
    ? parsed
    : { kind: 'transient', reason: `HTTP ${status} with a body that is not a job: ${parsed.reason}` }
}

/** `HTTP 404: Agent job not found`: the status and the API's `{"error": "..."}` message, when it sent one. */
function describe(status: number, body: string | undefined, redact: Redact): string {
  const decoded = body === undefined ? undefined : decodeJson(body, redact)
  if (typeof decoded === 'object' && decoded !== null && 'error' in decoded && typeof decoded.error === 'string') {
    return `HTTP ${status}: ${forLog(decoded.error)}`
  }
  return `HTTP ${status}`
}

/** The answers every operation reads alike: a redirect, a refused key. */
function commonRefusal(status: number, headers: Headers, described: string, redact: Redact): string | undefined {
  if (status >= 300 && status < 400) {
    const location = headers['location']
    const target = typeof location === 'string' ? ` to ${forLog(redact(location))}` : ''
    return `The API answered ${described}, a redirect${target}. Redirects are not followed so the API key never travels elsewhere: set base-url to the address that answers directly.`
  }
  if (status === 401 || status === 403) {
    return `The API refused the key (${described}). Check that the api-key secret holds a Mintlify admin API key (it starts with "mint_") for this project; admin keys are made on the dashboard's API keys page, under organization settings.`
  }
  return undefined
}

/**
 * The status a proxy gave instead of opening the tunnel to the API (undici's words for it), if that is what
 * happened: then the request never left the proxy.
 */
function proxyRefusal(code: string | undefined, message: string): number | undefined {
  const match =
    code === 'UND_ERR_ABORTED' ? /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/.exec(message) : null
  return match ? Number(match[1]) : undefined
}

const PROXY_AUTH_REQUIRED = 407

function proxyReason(status: number): string {
  return status === PROXY_AUTH_REQUIRED
    ? `the proxy refused to open a tunnel to the API (HTTP 407: proxy authentication required). Put the proxy's user and password in HTTPS_PROXY (http://user:password@proxy:port)`
    : `the proxy could not open a tunnel to the API (HTTP ${status})`
}

function networkReason(code: string | undefined, message: string): string {
  const known = code === undefined ? undefined : NETWORK_ERRORS[code]
  const suffix = code === undefined ? '' : ` (${code})`
  return known ? `${known}${suffix}` : `network error: ${forLog(message)}${suffix}`
}

function classifyPoll(answer: Exchange, timeoutMs: number, context: Context): PollResult {
  switch (answer.kind) {
    case 'cancelled':
      return { kind: 'cancelled' }
    case 'timeout':
      return { kind: 'transient', reason: `no complete answer within ${timeoutMs}ms (request-timeout)` }
    case 'network': {
      const viaProxy = proxyRefusal(answer.code, answer.message)
      if (viaProxy === PROXY_AUTH_REQUIRED)
        return { kind: 'permanent', reason: `Could not read the job: ${proxyReason(viaProxy)}.` }
      if (viaProxy !== undefined) return { kind: 'transient', reason: proxyReason(viaProxy) }
      const reason = networkReason(answer.code, context.redact(answer.message))
      return answer.code === 'ENOTFOUND'
        ? { kind: 'transient', reason, hostNotFound: true }
        : { kind: 'transient', reason }
    }
    case 'answer':
      break
  }
  const { status, headers, body } = answer
  if (status === 200) return jobIn(body, status, context)
  const described = describe(status, body, context.redact)
  const refusal = commonRefusal(status, headers, described, context.redact)
  if (refusal) return { kind: 'permanent', reason: refusal }
  if (status === 404) {
    return {
      kind: 'permanent',
      reason: `No agent job "${forLog(context.jobId ?? '')}" was found in project "${forLog(context.projectId)}" (${described} from GET ${context.target.href}). Check job-id (the id the job-creating step returned), project-id (from the dashboard's API keys page), and that base-url is the API's root.`
    }
  }
  if (status >= 400 && status < 500 && !RETRIABLE_CLIENT_ERRORS.has(status)) {
    return { kind: 'permanent', reason: `The API rejected the request (${described}); retrying cannot help.` }
  }
  const retryAfterMs = parseRetryAfter(headers['retry-after'], Date.now())
  const reason = status === 429 ? `rate limited (${described})` : described
  return retryAfterMs === undefined ? { kind: 'transient', reason } : { kind: 'transient', reason, retryAfterMs }
}

function classifySubmit(answer: Exchange, timeoutMs: number, context: Context & { what: string }): SubmitResult {
  switch (answer.kind) {
    case 'cancelled':
      return { kind: 'cancelled' }
    case 'timeout':
      return { kind: 'unknown', reason: `no complete answer within ${timeoutMs}ms (request-timeout)` }
    case 'network': {
      // A proxy that does not open the tunnel never passed the request on: it surely did not reach the API.
      const viaProxy = proxyRefusal(answer.code, answer.message)
      if (viaProxy === PROXY_AUTH_REQUIRED) {
        return { kind: 'refused', reason: `Could not ${context.what}: ${proxyReason(viaProxy)}.` }
      }
      if (viaProxy !== undefined) return { kind: 'not sent', reason: proxyReason(viaProxy) }
      const reason = networkReason(answer.code, context.redact(answer.message))
      if (answer.code === 'ENOTFOUND') {
        return { kind: 'refused', reason: `The API host could not be found (${reason}). Check base-url.` }
      }
      return answer.code !== undefined && NOT_SENT_CODES.has(answer.code)
        ? { kind: 'not sent', reason }
        : { kind: 'unknown', reason }
    }
    case 'answer':
      break
  }
  const { status, headers, body } = answer
  if (status >= 200 && status < 300) {
    const found = jobIn(body, status, context)
    return found.kind === 'job' ? found : { kind: 'unknown', reason: found.reason }
  }
  const described = describe(status, body, context.redact)
  const refusal = commonRefusal(status, headers, described, context.redact)
  if (refusal) return { kind: 'refused', reason: refusal }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers['retry-after'], Date.now())
    const reason = `rate limited (${described})`
    return retryAfterMs === undefined
      ? { kind: 'not sent', reason, rateLimited: true }
      : { kind: 'not sent', reason, retryAfterMs, rateLimited: true }
  }
  if (status === 404) {
    const what =
      context.jobId === undefined
        ? `project "${forLog(context.projectId)}" was not found`
        : `no agent job "${forLog(context.jobId)}" was found in project "${forLog(context.projectId)}"`
    return {
      kind: 'refused',
      reason: `Could not ${context.what}: ${what} (${described} from POST ${context.target.href}). Check project-id${context.jobId === undefined ? '' : ' and job-id'}, and that base-url is the API's root.`
    }
  }
  if (status >= 400 && status < 500) {
    return { kind: 'refused', reason: `The API refused to ${context.what} (${described}).` }
  }
  return { kind: 'unknown', reason: described }
}
