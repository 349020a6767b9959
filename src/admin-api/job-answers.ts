// What one request about a job learned. A poll (`GET /v2/agent/{projectId}/job/{id}`): the job, a fault worth trying
// again, or one that trying again cannot help. A create or follow-up changes something, so the only ones worth sending
// again are those the API surely did not act on.
import type { Exchange } from '../transport/exchange.ts'
import { faultWords, type NetworkFault, PROXY_AUTH_REQUIRED, surelyNotSent } from '../transport/network-fault.ts'
import { forLog } from '../text/untrusted.ts'
import type { AgentJob } from './agent-job.ts'
import {
  acceptanceIn,
  type Answer,
  type ApiCall,
  describeAnswer,
  jobInAnswer,
  notTheApi,
  parseRetryAfter,
  quotaWaitMs,
  refusalOfAnyRequest,
  unlikeTheApi
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
      /** No connection to base-url, which has never answered: what it was, in words, for the step to say. */
      readonly unreached?: string
    }
  /**
   * Trying again cannot help: the reason says what to change. `midRun` is what to say instead when the API had
   * answered earlier polls of this step (a key that stopped working).
   */
  | { readonly kind: 'permanent'; readonly reason: string; readonly midRun?: string }
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

export function classifyPoll(exchanged: Exchange, timeoutMs: number, asked: ApiCall): PollResult {
  switch (exchanged.kind) {
    case 'cancelled':
      return { kind: 'cancelled' }
    case 'timeout':
      return {
        kind: 'transient',
        reason: `no complete answer within ${timeoutMs}ms (request-timeout)`,
        fault: 'network'
      }
    case 'network':
      return classifyPollFault(exchanged.fault, asked)
    case 'answer':
      return classifyPollAnswer(exchanged, asked)
  }
}

function classifyPollFault(fault: NetworkFault, asked: ApiCall): PollResult {
  const reason = faultWords(fault, 'the API', asked.redact)
  if (fault.kind === 'proxy refused' && fault.status === PROXY_AUTH_REQUIRED) {
    return { kind: 'permanent', reason: `Could not read the job: ${reason}. ${PROXY_CREDENTIALS}.` }
  }
  if (fault.kind === 'tls')
    return { kind: 'permanent', reason: `Could not read the job: ${reason}. ${untrusted(asked)}` }
  if (fault.kind !== 'no connection') return { kind: 'transient', reason, fault: 'network' }
  if (fault.code === 'ENOTFOUND') {
    return { kind: 'transient', reason, fault: 'network', hostNotFound: asked.hostNotFound(reason) }
  }
  return asked.neverAnswered
    ? { kind: 'transient', reason, fault: 'network', unreached: reason }
    : { kind: 'transient', reason, fault: 'network' }
}

/** What to do about a proxy that wants credentials. */
export const PROXY_CREDENTIALS =
  "Put the proxy's user and password in the runner's HTTPS_PROXY (http://user:password@proxy:port)"

/** What a failed TLS handshake means: no byte was sent, and only a change of address or certificates helps. */
export function untrusted(asked: Pick<ApiCall, 'baseUrl'>): string {
  return `The handshake failed before any byte of the request was sent, and trying again cannot change it: check base-url (${asked.baseUrl.href}), and for a server whose certificate comes from a private authority, give the runner that authority's certificate (NODE_EXTRA_CA_CERTS)`
}

function classifyPollAnswer(answer: Exchange & { kind: 'answer' }, asked: ApiCall): PollResult {
  const { status } = answer
  const unlike = unlikeTheApi(answer, asked.redact)
  if (unlike !== undefined && (asked.neverAnswered || status === 405)) {
    return { kind: 'permanent', reason: notTheApi(asked, 'GET', unlike) }
  }
  if (status === 200) {
    const found = jobInAnswer(answer, asked)
    return found.kind === 'job' ? found : { kind: 'transient', reason: found.reason, fault: 'not a job' }
  }
  const described = describeAnswer(answer, asked.redact)
  const refusal = refusalOfAnyRequest(answer, described, asked)
  if (refusal && status === 401) return { kind: 'permanent', reason: refusal, midRun: keyStopped(described) }
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
  const retryAfterMs = parseRetryAfter(answer.headers, Date.now())
  const fault = status === 429 ? 'rate limited' : 'server'
  const reason = status === 429 ? `rate limited (${described})` : described
  return retryAfterMs === undefined
    ? { kind: 'transient', reason, fault }
    : { kind: 'transient', reason, fault, retryAfterMs }
}

/** A 401 after the API had answered this step: the key stopped working while the job ran. */
function keyStopped(described: string): string {
  return `The API stopped accepting the key during this step (${described}), after it had answered earlier polls: the key expired or was revoked while the job ran. The job itself goes on. Make a new admin API key on the dashboard's API keys page (organization settings), store it in the api-key secret, and wait for the job again with job-id.`
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
      /** No connection to base-url, which has never answered: what it was, in words, for the step to say. */
      readonly unreached?: string
    }
  /** Refused, with the API's own reason; sending it again cannot help. */
  | { readonly kind: 'refused'; readonly reason: string; readonly status?: number }
  /**
   * It may or may not have reached the API: never sent again. `notTheApi`: what answered does not look like the API,
   * and the reason says so first.
   */
  | { readonly kind: 'unsure'; readonly reason: string; readonly notTheApi?: boolean }
  /** Cancelled while the request was under way: it may or may not have reached the API. */
  | { readonly kind: 'cancelled' }

export interface SubmitCall extends ApiCall {
  /** `start the agent job`, `send the follow-up to agent job "7"`: what the request does, for messages. */
  readonly what: string
}

export function classifySubmit(exchanged: Exchange, timeoutMs: number, asked: SubmitCall): SubmitResult {
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

function classifySubmitFailure(failure: Exchange & { kind: 'network' }, asked: SubmitCall): SubmitResult {
  const { fault } = failure
  const reason = faultWords(fault, 'the API', asked.redact)
  // A proxy that does not open the tunnel never passed the request on, and a failed handshake sent no byte of it.
  if (fault.kind === 'proxy refused' && fault.status === PROXY_AUTH_REQUIRED) {
    return { kind: 'refused', reason: `Could not ${asked.what}: ${reason}. ${PROXY_CREDENTIALS}.` }
  }
  if (fault.kind === 'tls')
    return { kind: 'refused', reason: `Could not ${asked.what}: ${reason}. ${untrusted(asked)}.` }
  if (fault.kind === 'no connection' && fault.code === 'ENOTFOUND') {
    return { kind: 'refused', reason: asked.hostNotFound(reason) }
  }
  if (!surelyNotSent(fault)) return { kind: 'unsure', reason }
  return fault.kind === 'no connection' && asked.neverAnswered
    ? { kind: 'not sent', reason, unreached: reason }
    : { kind: 'not sent', reason }
}

function classifySubmitAnswer(answer: Answer, asked: SubmitCall): SubmitResult {
  const { status } = answer
  const unlike = unlikeTheApi(answer, asked.redact)
  if (unlike !== undefined) {
    const reason = notTheApi(asked, 'POST', unlike)
    // A success may still have come from the API: it is never sent again.
    return status >= 200 && status < 300 ? { kind: 'unsure', reason, notTheApi: true } : { kind: 'refused', reason }
  }
  if (status >= 200 && status < 300) {
    const accepted = acceptanceIn(answer, asked)
    return accepted.kind === 'accepted' ? accepted : { kind: 'unsure', reason: accepted.reason }
  }
  const described = describeAnswer(answer, asked.redact)
  const refusal = refusalOfAnyRequest(answer, described, asked)
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

function notFoundReason(described: string, asked: SubmitCall): string {
  const { jobId, projectId } = asked
  const what =
    jobId === undefined
      ? `project "${forLog(projectId)}" was not found`
      : `no agent job "${forLog(jobId)}" was found in project "${forLog(projectId)}"`
  return `Could not ${asked.what}: ${what} (${described} from POST ${asked.target.href}). Check project-id${jobId === undefined ? '' : ' and job-id'}, and that base-url is the API's root.`
}
