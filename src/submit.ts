// Sending a request that changes something (starting a job, sending a follow-up) under the rule that makes it
// safe: it is sent again only when the API surely did not act on it, and never after it may have.
import type { SubmitResult } from './admin-api.ts'
import { formatDuration } from './duration.ts'
import type { AgentJob } from './job.ts'
import type { PollerClock } from './poller.ts'
import { faultDelay, type ScheduleOptions } from './schedule.ts'

/** What is being sent, in words for the log and the messages. */
export interface SubmitWhat {
  /** `start the agent job` */
  readonly verb: string
  /** `Starting the agent job` */
  readonly gerund: string
  /** Where to look when it may or may not have worked: `a new agent job in project "docs"`. */
  readonly lookFor: string
}

interface SubmitOptions extends ScheduleOptions {
  /** When the step's time runs out (`timeout`, from the step's start). */
  readonly deadline: number
  readonly requestTimeoutMs: number
}

export type Submitted =
  | { readonly kind: 'job'; readonly job: AgentJob }
  /** Nothing was started; the reason says why and what to do. */
  | { readonly kind: 'error'; readonly reason: string }
  /** The request may or may not have reached the API, and is not sent again. */
  | { readonly kind: 'ambiguous'; readonly reason: string }
  /** `maybeSent`: the cancel came while the request was out, so it may have reached the API. */
  | { readonly kind: 'cancelled'; readonly reason: string; readonly maybeSent: boolean }

/** Mintlify's published limit for starting jobs and sending follow-ups. */
const RATE_LIMIT_NOTE = 'Mintlify allows 100 agent job starts and follow-ups an hour per project.'
/** A request started at the deadline still gets this long. */
const LAST_REQUEST_MIN_MS = 1000

export async function submit(
  send: (timeoutMs: number) => Promise<SubmitResult>,
  what: SubmitWhat,
  options: SubmitOptions,
  clock: PollerClock & { readonly cancelled: () => boolean },
  log: (message: string) => void
): Promise<Submitted> {
  for (let attempt = 1; ; attempt++) {
    const requestTimeout = Math.min(
      options.requestTimeoutMs,
      Math.max(options.deadline - clock.now(), LAST_REQUEST_MIN_MS)
    )
    const result = await send(requestTimeout)
    switch (result.kind) {
      case 'job':
        return result
      case 'refused':
        return { kind: 'error', reason: `${result.reason} Nothing was started.` }
      case 'unknown':
        return {
          kind: 'ambiguous',
          reason: `${what.gerund} may or may not have worked: ${result.reason}. It is not sent again, so that nothing runs twice: look for ${what.lookFor} on the Mintlify dashboard before you run this step again.`
        }
      case 'cancelled':
        return {
          kind: 'cancelled',
          reason: `Cancelled while trying to ${what.verb}: it may or may not have reached the API; look for ${what.lookFor} on the Mintlify dashboard.`,
          maybeSent: true
        }
      case 'not sent': {
        // Never sooner than Retry-After asks, nor than the backoff: a Retry-After of 0 cannot make it hammer the API.
        const wait = Math.max(result.retryAfterMs ?? 0, faultDelay(attempt, options, clock.random))
        if (clock.now() + wait > options.deadline) {
          const limit = result.rateLimited ? ` ${RATE_LIMIT_NOTE}` : ''
          const asked =
            result.retryAfterMs === undefined ? '' : `; it asked to wait ${formatDuration(wait)} (Retry-After)`
          return {
            kind: 'error',
            reason: `Could not ${what.verb}: ${result.reason}${asked}, past the timeout (${attempt} ${attempt === 1 ? 'attempt' : 'attempts'}).${limit} Nothing was started.`
          }
        }
        const limit = result.rateLimited ? ` ${RATE_LIMIT_NOTE}` : ''
        log(
          `Could not ${what.verb}: ${result.reason}.${limit} The API surely did not act on it, so it is sent again in ${formatDuration(wait)}.`
        )
        await clock.sleep(wait)
        if (clock.cancelled()) {
          return {
            kind: 'cancelled',
            reason: `Cancelled before trying to ${what.verb} again; nothing was started.`,
            maybeSent: false
          }
        }
      }
    }
  }
}
