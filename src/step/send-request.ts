// Sending a request that changes something (starting a job, sending a follow-up) under the rule that makes it
// safe: it is sent again only when the API surely did not act on it, and never after it may have.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { SubmitResult } from '../admin-api/submit-answer.ts'
import { formatDuration } from '../text/duration.ts'
import type { StepClock } from './clock.ts'
import { faultDelay, type ScheduleOptions } from './poll-schedule.ts'
import { requestBudget } from './time-budgets.ts'

/** What is being sent, in words for the log and the messages. */
export interface RequestWording {
  /** `start the agent job` */
  readonly verb: string
  /** `Starting the agent job` */
  readonly gerund: string
  /** Where to look when it may or may not have worked: `a new agent job in project "docs"`. */
  readonly lookFor: string
}

export interface SendOptions extends ScheduleOptions {
  /** Sends the request once, within `timeoutMs`. */
  readonly send: (timeoutMs: number) => Promise<SubmitResult>
  readonly wording: RequestWording
  /** When the step's time runs out (`timeout`, from the step's start). */
  readonly deadline: number
  readonly requestTimeoutMs: number
  readonly clock: StepClock
  readonly log: (message: string) => void
}

export type Sent =
  /** The API acted: the job's id, and the job when its answer carried one with a status. */
  | { readonly kind: 'accepted'; readonly jobId: string; readonly job: AgentJob | undefined }
  /** Nothing was started; the reason says why and what to do. */
  | { readonly kind: 'error'; readonly reason: string }
  /** The request may or may not have reached the API, and is not sent again. */
  | { readonly kind: 'ambiguous'; readonly reason: string }
  /** `maybeSent`: the cancel came while the request was out, so it may have reached the API. */
  | { readonly kind: 'cancelled'; readonly reason: string; readonly maybeSent: boolean }

/** Mintlify's published limit for starting jobs and sending follow-ups. */
const RATE_LIMIT_NOTE = 'Mintlify allows 100 agent job starts and follow-ups an hour per project.'

export async function sendRequest(options: SendOptions): Promise<Sent> {
  const { clock, wording } = options
  for (let attempt = 1; ; attempt++) {
    const result = await options.send(requestBudget(options.requestTimeoutMs, options.deadline, clock.now()))
    if (result.kind !== 'not sent') return sentOnce(result, wording)
    const retry = retryPlan(result, attempt, options)
    if (retry.kind === 'give up') return { kind: 'error', reason: retry.reason }
    options.log(retry.message)
    await clock.sleep(retry.waitMs)
    if (clock.cancelled()) {
      return {
        kind: 'cancelled',
        reason: `Cancelled before trying to ${wording.verb} again; nothing was started.`,
        maybeSent: false
      }
    }
  }
}

/** What a request that was answered (or may have been) means. */
function sentOnce(result: Exclude<SubmitResult, { kind: 'not sent' }>, wording: RequestWording): Sent {
  switch (result.kind) {
    case 'accepted':
      return result
    case 'refused':
      return { kind: 'error', reason: `${result.reason} Nothing was started.` }
    case 'unknown':
      return {
        kind: 'ambiguous',
        reason: `${wording.gerund} may or may not have worked: ${result.reason}. It is not sent again, so that nothing runs twice: look for ${wording.lookFor} on the Mintlify dashboard before you run this step again.`
      }
    case 'cancelled':
      return {
        kind: 'cancelled',
        reason: `Cancelled while trying to ${wording.verb}: it may or may not have reached the API; look for ${wording.lookFor} on the Mintlify dashboard.`,
        maybeSent: true
      }
  }
}

type RetryPlan =
  | { readonly kind: 'give up'; readonly reason: string }
  | { readonly kind: 'retry'; readonly waitMs: number; readonly message: string }

/** A request the API surely did not act on is sent again after a backoff, unless that runs past the deadline. */
function retryPlan(result: SubmitResult & { kind: 'not sent' }, attempt: number, options: SendOptions): RetryPlan {
  const { clock, wording } = options
  // Never sooner than Retry-After asks, nor than the backoff: a Retry-After of 0 cannot make it hammer the API.
  const waitMs = Math.max(result.retryAfterMs ?? 0, faultDelay(attempt, options, clock.random))
  const limit = result.rateLimited ? ` ${RATE_LIMIT_NOTE}` : ''
  if (clock.now() + waitMs > options.deadline) {
    const asked = result.retryAfterMs === undefined ? '' : `; it asked to wait ${formatDuration(waitMs)} (Retry-After)`
    const attempts = `${attempt} ${attempt === 1 ? 'attempt' : 'attempts'}`
    return {
      kind: 'give up',
      reason: `Could not ${wording.verb}: ${result.reason}${asked}, past the timeout (${attempts}).${limit} Nothing was started.`
    }
  }
  return {
    kind: 'retry',
    waitMs,
    message: `Could not ${wording.verb}: ${result.reason}.${limit} The API surely did not act on it, so it is sent again in ${formatDuration(waitMs)}.`
  }
}
