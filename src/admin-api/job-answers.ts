// What one request about a job learned. A poll (`GET /v2/agent/{projectId}/job/{id}`): the job, a fault worth trying
// again, or one that trying again cannot help. A create or follow-up changes something, so the only ones worth sending
// again are those the API surely did not act on.
import type { Exchange } from '../transport/exchange.ts'
import { forLog } from '../text/untrusted.ts'
import type { AgentJob } from './agent-job.ts'
import {
  acceptanceIn,
  type Answer,
  type AnswerContext,
  describeAnswer,
  jobInAnswer,
  NOT_SENT_CODES,
  networkReason,
  parseRetryAfter,
  PROXY_AUTH_REQUIRED,
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

export function classifyPoll(exchanged: Exchange, timeoutMs: number, context: AnswerContext): PollResult {
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
      const reason = networkReason(exchanged.code, context.redact(exchanged.message))
      return exchanged.code === 'ENOTFOUND'
        ? { kind: 'transient', reason, fault: 'network', hostNotFound: context.hostNotFound(reason) }
        : { kind: 'transient', reason, fault: 'network' }
    }
    case 'answer':
      return classifyPollAnswer(exchanged, context)
  }
}

function classifyPollAnswer(answer: Exchange & { kind: 'answer' }, context: AnswerContext): PollResult {
  const { status } = answer
  if (status === 200) {
    const found = jobInAnswer(answer, context)
    return found.kind === 'job' ? found : { kind: 'transient', reason: found.reason, fault: 'not a job' }
  }
  const described = describeAnswer(answer, context.redact)
  const refusal = refusalOfAnyRequest(answer, described, context.redact)
  if (refusal) return { kind: 'permanent', reason: refusal }
  if (status === 404) {
    const job = `agent job "${forLog(context.jobId ?? '')}"`
    return {
      kind: 'not found',
      reason: `No ${job} was found in project "${forLog(context.projectId)}" (${described} from GET ${context.target.href}). Check job-id (the id the job-creating step returned), project-id (from the dashboard's API keys page), and that base-url is the API's root.`,
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
  | { readonly kind: 'refused'; readonly reason: string }
  /** It may or may not have reached the API: never sent again. */
  | { readonly kind: 'unknown'; readonly reason: string }
  /** Cancelled while the request was under way: it may or may not have reached the API. */
  | { readonly kind: 'cancelled' }

export interface SubmitContext extends AnswerContext {
  /** `start the agent job`, `send the follow-up to agent job "7"`: what the request does, for messages. */
  readonly what: string
}

export function classifySubmit(exchanged: Exchange, timeoutMs: number, context: SubmitContext): SubmitResult {
  switch (exchanged.kind) {
    case 'cancelled':
      return { kind: 'cancelled' }
    case 'timeout':
      return { kind: 'unknown', reason: `no complete answer within ${timeoutMs}ms (request-timeout)` }
    case 'network':
      return classifySubmitFailure(exchanged, context)
    case 'answer':
      return classifySubmitAnswer(exchanged, context)
  }
}

function classifySubmitFailure(failure: Exchange & { kind: 'network' }, context: SubmitContext): SubmitResult {
  // A proxy that does not open the tunnel never passed the request on: it surely did not reach the API.
  const viaProxy = proxyRefusal(failure.code, failure.message)
  if (viaProxy === PROXY_AUTH_REQUIRED) {
    return { kind: 'refused', reason: `Could not ${context.what}: ${proxyReason(viaProxy)}.` }
  }
  if (viaProxy !== undefined) return { kind: 'not sent', reason: proxyReason(viaProxy) }
  const reason = networkReason(failure.code, context.redact(failure.message))
  if (failure.code === 'ENOTFOUND') return { kind: 'refused', reason: context.hostNotFound(reason) }
  return failure.code !== undefined && NOT_SENT_CODES.has(failure.code)
    ? { kind: 'not sent', reason }
    : { kind: 'unknown', reason }
}

function classifySubmitAnswer(answer: Answer, context: SubmitContext): SubmitResult {
  const { status } = answer
  if (status >= 200 && status < 300) {
    const accepted = acceptanceIn(answer, context)
    return accepted.kind === 'accepted' ? accepted : { kind: 'unknown', reason: accepted.reason }
  }
  const described = describeAnswer(answer, context.redact)
  const refusal = refusalOfAnyRequest(answer, described, context.redact)
  if (refusal) return { kind: 'refused', reason: refusal }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now())
    const reason = `rate limited (${described})`
    return retryAfterMs === undefined
      ? { kind: 'not sent', reason, rateLimited: true }
      : { kind: 'not sent', reason, retryAfterMs, rateLimited: true }
  }
  if (status === 404) return { kind: 'refused', reason: notFoundReason(described, context) }
  if (status >= 400 && status < 500) {
    return { kind: 'refused', reason: `The API refused to ${context.what} (${described}).` }
  }
  return { kind: 'unknown', reason: described }
}

function notFoundReason(described: string, context: SubmitContext): string {
  const { jobId, projectId } = context
  const what =
    jobId === undefined
      ? `project "${forLog(projectId)}" was not found`
      : `no agent job "${forLog(jobId)}" was found in project "${forLog(projectId)}"`
  return `Could not ${context.what}: ${what} (${described} from POST ${context.target.href}). Check project-id${jobId === undefined ? '' : ' and job-id'}, and that base-url is the API's root.`
}
