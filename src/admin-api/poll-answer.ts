// What one poll of `GET /v2/agent/{projectId}/job/{id}` learned: the job, a fault worth trying again, or one that
// trying again cannot help.
import type { Exchange } from '../transport/exchange.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { AgentJob } from './agent-job.ts'
import { type AnswerContext, describeAnswer, jobInAnswer, refusalOfAnyRequest } from './answer.ts'
import { networkReason, PROXY_AUTH_REQUIRED, proxyReason, proxyRefusal } from './network-faults.ts'
import { parseRetryAfter } from './retry-after.ts'

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

/** Client errors that a later attempt can outlive: request timeout, too early, rate limited. */
const RETRIABLE_CLIENT_ERRORS = new Set([408, 425, 429])

export function classifyPoll(exchanged: Exchange, timeoutMs: number, context: AnswerContext): PollResult {
  switch (exchanged.kind) {
    case 'cancelled':
      return { kind: 'cancelled' }
    case 'timeout':
      return { kind: 'transient', reason: `no complete answer within ${timeoutMs}ms (request-timeout)` }
    case 'network': {
      const viaProxy = proxyRefusal(exchanged.code, exchanged.message)
      if (viaProxy === PROXY_AUTH_REQUIRED)
        return { kind: 'permanent', reason: `Could not read the job: ${proxyReason(viaProxy)}.` }
      if (viaProxy !== undefined) return { kind: 'transient', reason: proxyReason(viaProxy) }
      const reason = networkReason(exchanged.code, context.redact(exchanged.message))
      return exchanged.code === 'ENOTFOUND'
        ? { kind: 'transient', reason, hostNotFound: true }
        : { kind: 'transient', reason }
    }
    case 'answer':
      return classifyPollAnswer(exchanged, context)
  }
}

function classifyPollAnswer(answer: Exchange & { kind: 'answer' }, context: AnswerContext): PollResult {
  const { status } = answer
  if (status === 200) {
    const found = jobInAnswer(answer, context)
    return found.kind === 'job' ? found : { kind: 'transient', reason: found.reason }
  }
  const described = describeAnswer(answer, context.redact)
  const refusal = refusalOfAnyRequest(answer, described, context.redact)
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
  const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], Date.now())
  const reason = status === 429 ? `rate limited (${described})` : described
  return retryAfterMs === undefined ? { kind: 'transient', reason } : { kind: 'transient', reason, retryAfterMs }
}
