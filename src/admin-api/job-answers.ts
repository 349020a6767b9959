// What one request about a job learned. A poll (`GET /v2/agent/{projectId}/job/{id}`): the job, a fault worth trying
// again, or one that trying again cannot help. A create or follow-up changes something, so the only ones worth sending
// again are those the API surely did not act on.
import type { Exchange } from '../transport/exchange.ts'
import { forLog } from '../text/untrusted.ts'
import type { AgentJob } from './agent-job.ts'
import {
  acceptanceIn,
  type Answer,
  type Asked,
  describeAnswer,
  jobInAnswer,
  NOT_SENT_CODES,
  networkReason,
  parseRetryAfter,
  PROXY_AUTH_REQUIRED,
  quotaWaitMs,
  proxyReason,
  proxyRefusal,
  refusalOfAnyRequest
} from './answer.ts'

/** What kind of fault a transient one is: each calls for its own advice when faults outlast the timeout. */
export type FaultKind = 'network' | 'server' | 'rate limited' | 'not a job' | 'not found'

export type PollResult =
  | { readonly kind: 'job'; readonly job: AgentJob }
  /** Worth trying again later: 5xx, 429, a network error, a timeout, a body that is not the job. */
  | {
      readonly kind: 'transient'
      readonly reason: string
      readonly fault: FaultKind
      readonly retryAfterMs?: number
      /** The host name did not resolve: what to say if that stops the step (unless the API has answered before). */
      readonly hostNotFound?: string
    }
  /** Trying again cannot help: the reason says what to change. */
  | { readonly kind: 'permanent'; readonly reason: string }
  /**
   * HTTP 404. `reason` is for a job named by job-id; a job this step has just started or followed up may not be
   * readable for a moment, and `sinceAccepted` is what to say when one stays unreadable.
   */
  | {
      readonly kind: 'not found'
      readonly reason: string
      readonly sinceAccepted: string
      /** `HTTP 404: Agent job not found`. */
      readonly described: string
    }
  | { readonly kind: 'cancelled' }

/** Client errors that a later attempt can outlive: request timeout, too early, rate limited. */
const RETRIABLE_CLIENT_ERRORS = new Set([408, 425, 429])

export function classifyPoll(exchanged: Exchange, timeoutMs: number, asked: Asked): PollResult {
  switch (exchanged.kind) {
    case 'cancelled':
      return { kind: 'cancelled' }
    case 'timeout':
      return {
        kind: 'transient',
        reason: `no complete answer within ${timeoutMs}ms (request-timeout)`,
        fault: 'network'
      }
    case 'network': {
      const viaProxy = proxyRefusal(exchanged.code, exchanged.message)
      if (viaProxy === PROXY_AUTH_REQUIRED)
        return { kind: 'permanent', reason: `Could not read the job: ${proxyReason(viaProxy)}.` }
      if (viaProxy !== undefined) return { kind: 'transient', reason: proxyReason(viaProxy), fault: 'network' }
      const reason = networkReason(exchanged.code, asked.redact(exchanged.message))
      return exchanged.code === 'ENOTFOUND'
        ? { kind: 'transient', reason, fault: 'network', hostNotFound: asked.hostNotFound(reason) }
        : { kind: 'transient', reason, fault: 'network' }
    }
    case 'answer':
      return classifyPollAnswer(exchanged, asked)
  }
}

function classifyPollAnswer(answer: Exchange & { kind: 'answer' }, asked: Asked): PollResult {
  const { status } = answer
  if (status === 200) {
    const found = jobInAnswer(answer, asked)
    return found.kind === 'job' ? found : { kind: 'transient', reason: found.reason, fault: 'not a job' }
  }
  const described = describeAnswer(answer, asked.redact)
  const refusal = refusalOfAnyRequest(answer, described, asked.redact)
  if (refusal) return { kind: 'permanent', reason: refusal }
  if (status === 404) {
    const job = `agent job "${forLog(asked.jobId ?? '')}"`
    return {
      kind: 'not found',
      reason: `No ${job} was found in project "${forLog(asked.projectId)}" (${described} from GET ${asked.target.href}). Check job-id (the id the job-creating step returned), project-id (from the dashboard's API keys page), and that base-url is the API's root.`,
      sinceAccepted: `The API accepted the request for ${job} but then answered ${described} for it, past the time a new job takes to show. The job may still be running: look for it on the Mintlify dashboard.`,
      described
    }
  }
  if (status >= 400 && status < 500 && !RETRIABLE_CLIENT_ERRORS.has(status)) {
    return { kind: 'permanent', reason: `The API rejected the request (${described}); retrying cannot help.` }
  }
  const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now())
  const fault = status === 429 ? 'rate limited' : 'server'
  const reason = status === 429 ? `rate limited (${described})` : described
  return retryAfterMs === undefined
    ? { kind: 'transient', reason, fault }
    : { kind: 'transient', reason, fault, retryAfterMs }
}

export type SubmitResult =
  /** Accepted: the job's id, and the job as the API returned it when the answer carried one with a status. */
  | { readonly kind: 'accepted'; readonly jobId: string; readonly job: AgentJob | undefined }
  /** Surely not acted on (rate limited, connection refused, DNS failed): safe to send again. */
  | {
      readonly kind: 'not sent'
      readonly reason: string
      readonly retryAfterMs?: number
      readonly rateLimited?: boolean
    }
  /** Refused, with the API's own reason; sending it again cannot help. */
  | { readonly kind: 'refused'; readonly reason: string; readonly status?: number }
  /** It may or may not have reached the API: never sent again. */
  | { readonly kind: 'unsure'; readonly reason: string }
  /** Cancelled while the request was under way: it may or may not have reached the API. */
  | { readonly kind: 'cancelled' }

export interface AskedToSubmit extends Asked {
  /** `start the agent job`, `send the follow-up to agent job "7"`: what the request does, for messages. */
  readonly what: string
}

export function classifySubmit(exchanged: Exchange, timeoutMs: number, asked: AskedToSubmit): SubmitResult {
  switch (exchanged.kind) {
    case 'cancelled':
      return { kind: 'cancelled' }
    case 'timeout':
      return { kind: 'unsure', reason: `no complete answer within ${timeoutMs}ms (request-timeout)` }
    case 'network':
      return classifySubmitFailure(exchanged, asked)
    case 'answer':
      return classifySubmitAnswer(exchanged, asked)
  }
}

function classifySubmitFailure(failure: Exchange & { kind: 'network' }, asked: AskedToSubmit): SubmitResult {
  // A proxy that does not open the tunnel never passed the request on: it surely did not reach the API.
  const viaProxy = proxyRefusal(failure.code, failure.message)
  if (viaProxy === PROXY_AUTH_REQUIRED) {
    return { kind: 'refused', reason: `Could not ${asked.what}: ${proxyReason(viaProxy)}.` }
  }
  if (viaProxy !== undefined) return { kind: 'not sent', reason: proxyReason(viaProxy) }
  const reason = networkReason(failure.code, asked.redact(failure.message))
  if (failure.code === 'ENOTFOUND') return { kind: 'refused', reason: asked.hostNotFound(reason) }
  return failure.code !== undefined && NOT_SENT_CODES.has(failure.code)
    ? { kind: 'not sent', reason }
    : { kind: 'unsure', reason }
}

function classifySubmitAnswer(answer: Answer, asked: AskedToSubmit): SubmitResult {
  const { status } = answer
  if (status >= 200 && status < 300) {
    const accepted = acceptanceIn(answer, asked)
    return accepted.kind === 'accepted' ? accepted : { kind: 'unsure', reason: accepted.reason }
  }
  const described = describeAnswer(answer, asked.redact)
  const refusal = refusalOfAnyRequest(answer, described, asked.redact)
  if (refusal) return { kind: 'refused', reason: refusal }
  if (status === 429) {
    const retryAfterMs = quotaWaitMs(answer.headers, Date.now())
    const reason = `rate limited (${described})`
    return retryAfterMs === undefined
      ? { kind: 'not sent', reason, rateLimited: true }
      : { kind: 'not sent', reason, retryAfterMs, rateLimited: true }
  }
  if (status === 404) return { kind: 'refused', reason: notFoundReason(described, asked) }
  if (status >= 400 && status < 500) {
    return { kind: 'refused', reason: `The API refused to ${asked.what} (${described}).`, status }
  }
  return { kind: 'unsure', reason: described }
}

function notFoundReason(described: string, asked: AskedToSubmit): string {
  const { jobId, projectId } = asked
  const what =
    jobId === undefined
      ? `project "${forLog(projectId)}" was not found`
      : `no agent job "${forLog(jobId)}" was found in project "${forLog(projectId)}"`
  return `Could not ${asked.what}: ${what} (${described} from POST ${asked.target.href}). Check project-id${jobId === undefined ? '' : ' and job-id'}, and that base-url is the API's root.`
}
