// What one create or follow-up learned. These requests change something, so the only ones worth sending again are
// those the API surely did not act on.
import type { Exchange } from '../transport/exchange.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { AgentJob } from './agent-job.ts'
import { acceptanceIn, type Answer, type AnswerContext, describeAnswer, refusalOfAnyRequest } from './answer.ts'
import { NOT_SENT_CODES, networkReason, PROXY_AUTH_REQUIRED, proxyReason, proxyRefusal } from './network-faults.ts'
import { parseRetryAfter } from './retry-after.ts'

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
