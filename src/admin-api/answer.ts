// The parts of an admin API answer that every operation reads alike: its JSON, its job, its error message, and the
// refusals that mean the same whatever was asked (a redirect, a refused key).
import type { Exchange, Headers } from '../transport/exchange.ts'
import { type Redact, redactJson } from '../text/redact.ts'
import { forLog } from '../text/untrusted-text.ts'
import { type AgentJob, parseJob } from './agent-job.ts'

/** A job body is a few hundred bytes; anything near this is not a job, and is not buffered. */
export const MAX_BODY_BYTES = 1024 * 1024

export type Answer = Exchange & { readonly kind: 'answer' }

/** What an answer is judged against: the request it answers, and what the job in it must be. */
export interface AnswerContext {
  readonly projectId: string
  /** The job the answer must be about; undefined when creating one. */
  readonly jobId: string | undefined
  /** The request's URL, for messages. */
  readonly target: URL
  readonly redact: Redact
  /** Hosts whose pull request URLs give `pr-number` and `pr-repository`. */
  readonly githubHosts: ReadonlySet<string>
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

/** The job in a 2xx answer, or why there is none. */
export function jobInAnswer(
  answer: Answer,
  context: AnswerContext
): { readonly kind: 'job'; readonly job: AgentJob } | { readonly kind: 'not a job'; readonly reason: string } {
  const { status, body } = answer
  if (body === undefined)
    return { kind: 'not a job', reason: `HTTP ${status} with a body over ${MAX_BODY_BYTES} bytes, not read` }
  const decoded = decodeJson(body, context.redact)
  if (decoded === NOT_JSON) return { kind: 'not a job', reason: `HTTP ${status} with a body that is not JSON` }
  const parsed = parseJob(decoded, context)
  return parsed.kind === 'job'
    ? parsed
    : { kind: 'not a job', reason: `HTTP ${status} with a body that is not a job: ${parsed.reason}` }
}

/** `HTTP 404: Agent job not found`: the status and the API's `{"error": "..."}` message, when it sent one. */
export function describeAnswer(answer: Answer, redact: Redact): string {
  const decoded = answer.body === undefined ? undefined : decodeJson(answer.body, redact)
  if (typeof decoded === 'object' && decoded !== null && 'error' in decoded && typeof decoded.error === 'string') {
    return `HTTP ${answer.status}: ${forLog(decoded.error)}`
  }
  return `HTTP ${answer.status}`
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
