// What a preview trigger (`POST /v1/project/preview/{projectId}`) and a build status read
// (`GET /v1/project/update-status/{statusId}`) learned. A trigger sent again is a rebuild, not a second preview, so any
// fault may be tried again; but once the API has answered it, it is not sent again. No field of a build status is
// marked required; only `status` decides anything.
import type { Exchange } from '../transport/exchange.ts'
import { faultWords, PROXY_AUTH_REQUIRED } from '../transport/network-fault.ts'
import type { Redact } from '../text/redact.ts'
import { shownHttpUrl } from '../text/untrusted.ts'
import { isRecord } from './agent-job.ts'
import {
  type Answer,
  type ApiCall,
  decodeJson,
  describeAnswer,
  parseRetryAfter,
  refusalOfAnyRequest
} from './answer.ts'
import { PROXY_CREDENTIALS, untrusted } from './job-answers.ts'

/** The statuses after which a build no longer changes. */
const ENDED = ['success', 'failure'] as const

export interface PreviewBuild {
  /** Trimmed and lower-cased: `queued`, `in_progress`, `success`, `failure`, or (redacted) one nobody listed. */
  readonly status: string
  /** The build's one-sentence summary, redacted. */
  readonly summary: string | undefined
  /** The build's log lines, redacted. */
  readonly logs: readonly string[]
}

export function buildEnded(build: PreviewBuild): build is PreviewBuild & { status: (typeof ENDED)[number] } {
  return (ENDED as readonly string[]).includes(build.status)
}

export function parsePreviewBuild(body: unknown, redact: Redact): PreviewBuild | undefined {
  if (!isRecord(body) || typeof body['status'] !== 'string' || body['status'].trim() === '') return undefined
  const status = body['status'].trim().toLowerCase()
  const known = ['queued', 'in_progress', ...ENDED].includes(status)
  const summary = body['summary']
  const logs = Array.isArray(body['logs']) ? body['logs'].filter((line) => typeof line === 'string') : []
  return {
    status: known ? status : redact(status),
    summary: typeof summary === 'string' && summary.trim() !== '' ? redact(summary) : undefined,
    logs: logs.map(redact)
  }
}

export type TriggerResult =
  /** Queued: where the preview will be, and the status to follow. */
  | { readonly kind: 'triggered'; readonly statusId: string; readonly previewUrl: string | undefined }
  /** Not triggered, for now (a rate limit, an outage, the network): worth sending again. */
  | {
      readonly kind: 'transient'
      readonly reason: string
      readonly retryAfterMs?: number
      readonly rateLimited?: boolean
    }
  /** The organization's plan has no previews. */
  | { readonly kind: 'unavailable'; readonly reason: string }
  /** Refused, or answered without a status to follow: sending it again cannot help. */
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'cancelled' }

export type BuildPoll =
  | { readonly kind: 'build'; readonly build: PreviewBuild }
  | {
      readonly kind: 'transient'
      readonly reason: string
      readonly retryAfterMs?: number
      /** HTTP 404: the status may not be readable yet, or may never be. */
      readonly notFound?: boolean
    }
  | { readonly kind: 'permanent'; readonly reason: string }
  | { readonly kind: 'cancelled' }

type PreviewAsked = Pick<ApiCall, 'redact' | 'baseUrl' | 'target' | 'what'>

/** What went wrong before any answer, as a fault worth trying again; a proxy wanting credentials, or TLS, stops. */
function withoutAnswer(exchanged: Exchange & { kind: 'timeout' | 'network' }, timeoutMs: number, asked: PreviewAsked) {
  if (exchanged.kind === 'timeout') {
    return { kind: 'transient', reason: `no complete answer within ${timeoutMs}ms (request-timeout)` } as const
  }
  const { fault } = exchanged
  const reason = faultWords(fault, 'the API', asked.redact)
  if (fault.kind === 'proxy refused' && fault.status === PROXY_AUTH_REQUIRED) {
    return { kind: 'permanent', reason: `${reason}. ${PROXY_CREDENTIALS}.` } as const
  }
  if (fault.kind === 'tls') return { kind: 'permanent', reason: `${reason}. ${untrusted(asked)}.` } as const
  return { kind: 'transient', reason } as const
}

export function classifyTrigger(exchanged: Exchange, timeoutMs: number, asked: PreviewAsked): TriggerResult {
  if (exchanged.kind === 'cancelled') return { kind: 'cancelled' }
  if (exchanged.kind !== 'answer') {
    const fault = withoutAnswer(exchanged, timeoutMs, asked)
    return fault.kind === 'transient'
      ? { kind: 'transient', reason: fault.reason }
      : { kind: 'refused', reason: fault.reason }
  }
  const { status } = exchanged
  if (status >= 200 && status < 300) return triggeredIn(exchanged, asked.redact)
  const described = describeAnswer(exchanged, asked.redact)
  if (status === 429 || status >= 500 || status === 408) return retryAfter(exchanged, described)
  if (status === 403 && /plan/i.test(described)) return { kind: 'unavailable', reason: described }
  return { kind: 'refused', reason: refusalOfAnyRequest(exchanged, described, asked) ?? described }
}

function triggeredIn(answer: Answer, redact: Redact): TriggerResult {
  const body = bodyJson(answer)
  const statusId = isRecord(body) ? body['statusId'] : undefined
  if (typeof statusId !== 'string' || !/^[\w-]{1,200}$/.test(statusId)) {
    return { kind: 'refused', reason: `HTTP ${answer.status} without a build status to follow` }
  }
  const previewUrl =
    isRecord(body) && typeof body['previewUrl'] === 'string'
      ? shownHttpUrl(body['previewUrl'], redact)?.href
      : undefined
  return { kind: 'triggered', statusId, previewUrl }
}

function retryAfter(answer: Answer, described: string): TriggerResult & { kind: 'transient' } {
  const retryAfterMs = parseRetryAfter(answer.headers, Date.now())
  const rateLimited = answer.status === 429
  const reason = rateLimited ? `rate limited (${described})` : described
  return { kind: 'transient', reason, rateLimited, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }
}

export function classifyBuildPoll(exchanged: Exchange, timeoutMs: number, asked: PreviewAsked): BuildPoll {
  if (exchanged.kind === 'cancelled') return { kind: 'cancelled' }
  if (exchanged.kind !== 'answer') {
    const fault = withoutAnswer(exchanged, timeoutMs, asked)
    return fault.kind === 'transient'
      ? { kind: 'transient', reason: fault.reason }
      : { kind: 'permanent', reason: fault.reason }
  }
  const described = describeAnswer(exchanged, asked.redact)
  if (exchanged.status === 200) {
    const build = parsePreviewBuild(bodyJson(exchanged), asked.redact)
    return build
      ? { kind: 'build', build }
      : { kind: 'transient', reason: `HTTP 200 with a body that is not a build status` }
  }
  // A status just created may not be readable for a moment, as a job may not be: a 404 is waited out too.
  if (exchanged.status === 404 || exchanged.status === 429 || exchanged.status === 408 || exchanged.status >= 500) {
    const retry = retryAfter(exchanged, described)
    return {
      kind: 'transient',
      reason: retry.reason,
      ...(retry.retryAfterMs === undefined ? {} : { retryAfterMs: retry.retryAfterMs }),
      ...(exchanged.status === 404 ? { notFound: true } : {})
    }
  }
  return { kind: 'permanent', reason: refusalOfAnyRequest(exchanged, described, asked) ?? described }
}

/** The answer's JSON; undefined when it has none. */
function bodyJson(answer: Answer): unknown {
  const json = answer.body === undefined ? undefined : decodeJson(answer.body)
  return typeof json === 'symbol' ? undefined : json
}
