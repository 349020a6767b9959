// The parts of an admin API answer that every operation reads alike: its JSON, its job, its error message, the
// refusals that mean the same whatever was asked (a redirect, a key refused or not allowed), an address that is not
// the API, and how long the API asked to wait.
import type { Exchange, Headers } from '../transport/exchange.ts'
import type { Redact } from '../text/redact.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted.ts'
import { type AgentJob, identityProblem, isRecord, parseJob, readJobId } from './agent-job.ts'

/** A job body is a few hundred bytes; anything near this is not a job, and is not buffered. */
export const MAX_BODY_BYTES = 1024 * 1024

export type Answer = Exchange & { readonly kind: 'answer' }

/** What an answer is judged against: the request it answers, and what the job in it must be. */
export interface ApiCall {
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
  /** base-url, as given. */
  readonly baseUrl: URL
  /** The API has not answered this step yet: a fault may then be base-url's own. */
  readonly neverAnswered: boolean
  /** `start the agent job`: what a request that changes something does; undefined for a read. */
  readonly what?: string | undefined
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
export function jobInAnswer(
  answer: Answer,
  asked: ApiCall
): { readonly kind: 'job'; readonly job: AgentJob } | NotAJob {
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
export function acceptanceIn(answer: Answer, asked: ApiCall): Acceptance {
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

const MAKE_A_KEY = "Admin API keys are made on the dashboard's API keys page, under organization settings"

/** The refusals every operation reads alike: a redirect, a key refused (401) or not allowed this request (403). */
export function refusalOfAnyRequest(
  answer: Answer,
  described: string,
  asked: Pick<ApiCall, 'redact' | 'what'>
): string | undefined {
  const { status, headers } = answer
  if (status >= 300 && status < 400) {
    return `The API answered ${described}, a redirect${locationOf(headers, asked.redact)}. Redirects are not followed so the API key never travels elsewhere: set base-url to the address that answers directly.`
  }
  if (status === 401) {
    return `The API refused the key (${described}): it is not a valid admin API key (one starts with "mint_"), or it has expired (a key expires after the lifetime chosen when it was made, 90 days by default). ${MAKE_A_KEY}: make a new one and store it in the api-key secret.`
  }
  if (status === 403) return forbidden(described, asked)
  return undefined
}

/**
 * A 403: the key is valid but not allowed this request. The API's own words say why when they can: a plan without
 * API access, an IP allowlist; otherwise a refused write is most likely a key limited to read.
 */
function forbidden(described: string, asked: Pick<ApiCall, 'what'>): string {
  const refused = `The API refused ${asked.what === undefined ? 'this request' : `to ${asked.what}`} (${described})`
  if (/\bplan\b/i.test(described)) {
    return `${refused}: your Mintlify plan does not include API access. The admin API and the agent need a Pro or Enterprise plan.`
  }
  const allowlist = `a GitHub-hosted runner's address changes from run to run: run this step on a self-hosted runner with a fixed address that the allowlist includes, or change the key's allowlist`
  if (/\bIP\b|allow-?list|address/i.test(described)) {
    return `${refused}: the key's IP allowlist does not include this runner's address, and ${allowlist}.`
  }
  if (asked.what !== undefined) {
    return `${refused}: the key is not allowed to. A key limited to read can follow a job but not start one, send a follow-up or build a preview: starting jobs needs a key with write access (${MAKE_A_KEY}). If the key has an IP allowlist, it must include this runner's address.`
  }
  return `${refused}: the key is not allowed to read this project's jobs. If the key has an IP allowlist, ${allowlist}; check too that the key belongs to this project's organization.`
}

function locationOf(headers: Headers, redact: Redact): string {
  const location = headers['location']
  return typeof location === 'string' ? ` to ${forLog(redact(location))}` : ''
}

/**
 * What came back, in a few words, when it does not look like the Mintlify admin API (which answers JSON, and never
 * 405): an HTML page where a job or an error was expected, or a method the address does not allow. A 5xx page is an
 * outage's, not base-url's. Undefined when it may be the API. An answer is judged by its body, whatever its
 * `Content-Type` says: JSON is read as JSON; markup, or a body an HTML type labels that is no JSON, is a page.
 */
export function unlikeTheApi(answer: Answer, redact: Redact): string | undefined {
  const { status, headers, body } = answer
  if (status === 405) return `${describeAnswer(answer, redact)} (method not allowed)`
  const type = headers['content-type']
  const labelled = typeof type === 'string' && /html/i.test(type)
  // A body too large to read is judged by its label alone.
  const html =
    body === undefined
      ? labelled
      : /^\s*</.test(body) || (labelled && body.trim() !== '' && decodeJson(body) === NOT_JSON)
  if (html && ((status >= 200 && status < 300) || status === 404)) return `HTTP ${status} with an HTML page`
  return undefined
}

/** base-url, named, with what its answer was. */
export function notTheApi(asked: ApiCall, method: 'GET' | 'POST', what: string): string {
  return `base-url (${asked.baseUrl.href}) does not look like the Mintlify admin API: ${method} ${asked.target.href} answered ${what}, where the API answers JSON. Set base-url to the admin API's root (https://api.mintlify.com, the default).`
}

/** base-url, named, when it has never answered: connecting to it failed, for `triedMs`. */
export function unreachedBaseUrl(asked: Pick<ApiCall, 'baseUrl'>, words: string, triedMs: number): string {
  return `base-url (${asked.baseUrl.href}) could not be reached for ${formatDuration(triedMs)}, and has not answered once: ${words}. Check base-url (the admin API's root, https://api.mintlify.com by default), and that this runner can reach it (a runner behind a proxy needs HTTPS_PROXY).`
}

/**
 * Reads a `Retry-After` header: a number of seconds, or an HTTP date, read against the answer's own `Date` header
 * (the runner's clock may be off; `nowMs` only when the answer has no usable date). Returns the wait in
 * milliseconds (never negative), or undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim()
  const value = first(headers['retry-after'])
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  if (Number.isNaN(date)) return undefined
  const answered = Date.parse(first(headers['date']) ?? '')
  return Math.max(0, date - (Number.isNaN(answered) ? nowMs : answered))
}

/**
 * How long a 429 asks to wait before the quota has room again: its `Retry-After`, or else a reset header, as rate
 * limiters send them (`RateLimit-Reset`, seconds to wait; `X-RateLimit-Reset`, the reset's time in seconds since the
 * epoch, or seconds to wait when that small). Undefined when it says nothing readable.
 */
export function quotaWaitMs(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = parseRetryAfter(headers, nowMs)
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
  // A time since the epoch is past 2001, read against the answer's own Date as a Retry-After date is; a smaller number
  // is a number of seconds to wait.
  const dated = Date.parse((Array.isArray(headers['date']) ? headers['date'][0] : headers['date']) ?? '')
  const now = Number.isNaN(dated) ? nowMs : dated
  return reset > 1_000_000_000 ? Math.max(0, reset * 1000 - now) : reset * 1000
}
