// Sending the prompt, as a new job or as a follow-up, under the rule that makes it safe: the request is recorded on the
// tracking comment, as unsure, before it is sent; it is sent again only when the API surely did not act on it, and
// never after it may have; once the answer says what happened, the record says so too, so that a re-run never sends
// again a request that may have reached the API.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { SubmitResult } from '../admin-api/job-answers.ts'
import { unreachedBaseUrl } from '../admin-api/answer.ts'
import { promptHash, type Submission } from '../github/tracking-record.ts'
import type { Settings } from '../inputs/settings.ts'
import type { TrackingComment } from '../report/tracking-comment.ts'
import { DAY_MS, formatDuration } from '../text/duration.ts'
import { promptLine, forLog } from '../text/untrusted.ts'
import { type Clock, faultLog, retry, UNREACHED_WINDOW_MS } from '../wait/retry.ts'
import type { Decision, StepSetup } from './decision.ts'

export type PromptTarget = { readonly kind: 'start' } | { readonly kind: 'follow-up'; readonly jobId: string }

/** The workflow run and its attempt, and the step (`GITHUB_JOB/GITHUB_ACTION`), recorded with each request. */
export interface RunRecord {
  readonly id: string
  readonly attempt: number
  readonly step: string
}

/** One prompt to send, and what the record of it says. */
export interface PromptToSend {
  /** As the workflow gave it: the record and a re-run's search go by it, not by what was read from GitHub. */
  readonly prompt: string
  readonly target: PromptTarget
  /** The text sent; the prompt as `setup.compose` makes it when not given. */
  readonly text?: () => Promise<string>
  /** With `mode: pair`: the source pull request's head commit the prompt describes. */
  readonly head?: string
  /** A person asked for it, with `command` or `label`. */
  readonly asked?: boolean
}

export async function sendPrompt(
  setup: StepSetup,
  run: RunRecord,
  ask: PromptToSend,
  comment: TrackingComment | undefined
): Promise<Decision> {
  const { settings, log } = setup
  const { prompt, target } = ask
  const project = `project "${forLog(settings.projectId)}"`
  const job = target.kind === 'follow-up' ? `agent job "${forLog(target.jobId)}"` : undefined
  // A prompt may quote the key or the token (a pasted command line): what is shown of it is redacted first, before
  // it is shortened, so that no part of a secret is left for the runner's masking to miss.
  const shown = setup.redact(prompt)
  log.info(
    job === undefined
      ? `Starting an agent job in ${project} with the prompt: ${promptLine(shown, 100)}`
      : `Sending a follow-up to ${job} in ${project}: ${promptLine(shown, 100)}`
  )
  // The record and a re-run's search go by the prompt as the user wrote it, not the text read from GitHub.
  const text = await (ask.text ?? (() => setup.compose(prompt)))()
  const submission = {
    ...submissionOf(settings, run, setup.clock, { prompt, shown }, target.kind),
    ...(ask.head ? { head: ask.head } : {}),
    ...(ask.asked ? { asked: true as const } : {})
  }
  await comment?.recordBeforeSending(submission)
  if (setup.clock.cancelled()) {
    comment?.withdraw(submission)
    return { kind: 'cancelled', reason: 'Cancelled before anything was sent.', comment, nothingSent: true }
  }
  const unrecorded = recordMissing(settings, comment)
  if (unrecorded !== undefined) {
    comment?.withdraw(submission)
    return { kind: 'error', reason: unrecorded, comment }
  }
  const sent = await submit({
    settings,
    send: (timeoutMs) =>
      target.kind === 'start'
        ? setup.api.createJob(text, timeoutMs)
        : setup.api.sendFollowUp(target.jobId, text, timeoutMs),
    wording: job === undefined ? startWording(project) : followUpWording(job),
    deadline: setup.deadline,
    clock: setup.clock,
    log: (message) => {
      log.info(message)
    }
  })
  if (sent.kind !== 'accepted') return notAccepted(sent, target, submission, comment)
  comment?.accepted(submission, sent.jobId)
  log.info(job === undefined ? `Started agent job "${forLog(sent.jobId)}".` : `The follow-up was accepted by ${job}.`)
  const followedUp = target.kind === 'follow-up'
  return { kind: 'job', jobId: sent.jobId, job: sent.job, submission, followedUp, sent: true, comment }
}

/** The submission was not accepted: one that may have reached the API stays on record, unsure, so a re-run sends nothing. */
function notAccepted(
  sent: Exclude<Submitted, { kind: 'accepted' }>,
  target: PromptTarget,
  submission: Submission,
  comment: TrackingComment | undefined
): Decision {
  const maybeSent = sent.kind === 'unsure' || (sent.kind === 'cancelled' && sent.maybeSent)
  if (!maybeSent) comment?.withdraw(submission)
  const jobId = target.kind === 'follow-up' ? target.jobId : undefined
  if (sent.kind === 'cancelled')
    return { kind: 'cancelled', reason: sent.reason, comment, jobId, nothingSent: !maybeSent }
  const kind = sent.kind === 'unsure' ? 'error' : sent.kind
  const refusedWith = sent.kind === 'error' ? sent.refusedWith : undefined
  return { kind, reason: sent.reason, comment, jobId, refusedWith }
}

/**
 * Why the request may not be sent: with a mode or requests, the record on GitHub is what the next run decides by
 * (the job to follow up, the batch's cursor), so a request it does not hold would be sent again; undefined to go on.
 */
function recordMissing(settings: Settings, comment: TrackingComment | undefined): string | undefined {
  if (!settings.githubUse.record) return undefined
  if (comment?.protectsReruns() === true) return undefined
  const why = comment?.problem() ?? 'GitHub could not be set up.'
  return `Nothing was sent to the agent: the request could not be recorded on GitHub first, and the next run, which decides by that record, would send it again. ${why} Once that is fixed, run the workflow again (a new run, if a re-run says an earlier attempt could not tell whether it sent).`
}

function startWording(project: string): SubmitWording {
  return { verb: 'start the agent job', gerund: 'Starting the agent job', lookFor: `a new agent job in ${project}` }
}

function followUpWording(job: string): SubmitWording {
  return {
    verb: `send the follow-up to ${job}`,
    gerund: `Sending the follow-up to ${job}`,
    lookFor: `the follow-up on ${job}`
  }
}

/** The request to record: the prompt's hash, and its first line as shown (redacted), for people. */
function submissionOf(
  settings: Settings,
  run: RunRecord,
  clock: Clock,
  prompt: { readonly prompt: string; readonly shown: string },
  kind: Submission['kind']
): Submission {
  return {
    kind,
    run: run.id,
    attempt: run.attempt,
    prompt: promptHash(prompt.prompt),
    line: promptLine(prompt.shown),
    project: settings.projectId,
    at: clock.date(),
    ...(run.step ? { step: run.step } : {})
  }
}

/** What is being sent, in words for the log and the messages. */
export interface SubmitWording {
  /** `start the agent job` */
  readonly verb: string
  /** `Starting the agent job` */
  readonly gerund: string
  /** Where to look when it may or may not have worked: `a new agent job in project "docs"`. */
  readonly lookFor: string
}

export interface SubmitOptions {
  readonly settings: Settings
  /** Sends the request once, within `timeoutMs`. */
  readonly send: (timeoutMs: number) => Promise<SubmitResult>
  readonly wording: SubmitWording
  /** When the step's time runs out (`timeout`, from the step's start). */
  readonly deadline: number
  readonly clock: Clock
  readonly log: (message: string) => void
}

export type Submitted =
  /** The API acted: the job's id, and the job when its answer carried one with a status. */
  | { readonly kind: 'accepted'; readonly jobId: string; readonly job: AgentJob | undefined }
  /** Nothing was started; the reason says why and what to do; `refusedWith`: the status of the API's no. */
  | { readonly kind: 'error'; readonly reason: string; readonly refusedWith?: number | undefined }
  /** The request may or may not have reached the API, and is not sent again. */
  | { readonly kind: 'unsure'; readonly reason: string }
  /** `maybeSent`: the cancel came while the request was out, so it may have reached the API. */
  | { readonly kind: 'cancelled'; readonly reason: string; readonly maybeSent: boolean }
  /** The API's quota is spent and does not reset within the timeout: nothing was started. */
  | { readonly kind: 'rate-limited'; readonly reason: string }

/** Mintlify's published limit for starting jobs and sending follow-ups. */
const RATE_LIMIT_NOTE = 'Mintlify allows 100 agent job starts and follow-ups an hour per project.'

/** base-url never answered: the request was never sent. */
type Unreached = Submitted & { readonly kind: 'error' }

/** Sends the request; only one the API surely did not act on is sent again, after a backoff, within the deadline. */
export async function submit(options: SubmitOptions): Promise<Submitted> {
  const { wording, settings, clock } = options
  /** The last answer that said the request was not sent, and why: what the log and the final message quote. */
  let notSent: (SubmitResult & { kind: 'not sent' }) | undefined
  /** When base-url, which has never answered, first could not be reached. */
  let unreachedSince: number | undefined
  const unreached = (words: string): Unreached => ({
    kind: 'error',
    reason: `Could not ${wording.verb}: ${unreachedBaseUrl(settings, words, clock.now() - (unreachedSince ?? clock.now()))} Nothing was started.`
  })
  const limit = (): string => (notSent?.rateLimited ? ` ${RATE_LIMIT_NOTE}` : '')
  const faults = faultLog(options.log, clock.now)
  const retried = await retry<Exclude<SubmitResult, { kind: 'not sent' }> | Unreached>(
    {
      clock,
      deadline: options.deadline,
      schedule: settings,
      requestTimeoutMs: settings.requestTimeoutMs,
      mode: 'send',
      beforeWait: (_last, waitMs) => {
        const reason = notSent?.reason ?? ''
        faults.fault(
          reason,
          `Could not ${wording.verb}: ${reason}.${limit()} The API surely did not act on it, so it is sent again in ${formatDuration(waitMs)}.`
        )
      }
    },
    async (timeoutMs) => {
      const started = clock.now()
      const result = await options.send(timeoutMs)
      if (result.kind !== 'not sent') return { kind: 'done', value: result }
      notSent = result
      if (result.unreached !== undefined) {
        unreachedSince ??= started
        if (clock.now() - unreachedSince >= UNREACHED_WINDOW_MS)
          return { kind: 'done', value: unreached(result.unreached) }
      }
      return { kind: 'transient', reason: result.reason, retryAfterMs: result.retryAfterMs }
    }
  )
  faults.end()
  switch (retried.kind) {
    case 'done':
      return sentOnce(retried.value, wording)
    case 'cancelled':
      return {
        kind: 'cancelled',
        reason: `Cancelled before trying to ${wording.verb} again; nothing was started.`,
        maybeSent: false
      }
    case 'deadline':
      return notSent?.unreached === undefined ? pastTimeout(options, notSent, retried) : unreached(notSent.unreached)
  }
}

/** The timeout came before the request could be sent: the last reason, and when a spent quota resets. */
function pastTimeout(
  options: SubmitOptions,
  notSent: (SubmitResult & { kind: 'not sent' }) | undefined,
  retried: { readonly tries: number; readonly waitMs: number | undefined }
): Submitted {
  const asked =
    notSent?.retryAfterMs === undefined ? '' : `; it asked to wait ${formatDuration(retried.waitMs ?? 0)} (Retry-After)`
  const attempts = `${retried.tries} ${retried.tries === 1 ? 'attempt' : 'attempts'}`
  const limit = notSent?.rateLimited ? ` ${RATE_LIMIT_NOTE}` : ''
  const failed = `Could not ${options.wording.verb}: ${notSent?.reason ?? ''}${asked}, past the timeout (${attempts}).${limit}`
  if (!notSent?.rateLimited) return { kind: 'error', reason: `${failed} Nothing was started.` }
  const resets = resetSentence(options.clock.date(), notSent.retryAfterMs)
  return { kind: 'rate-limited', reason: `${failed}${resets} The docs were not updated: nothing was started.` }
}

/** When the quota resets, by what the API asked: the time of day, in UTC. */
function resetSentence(now: number, waitMs: number | undefined): string {
  if (waitMs === undefined) return ' The API did not say when its quota resets.'
  if (waitMs > DAY_MS) return ' By what the API asked, its quota does not reset within a day.'
  return ` The quota resets at ${new Date(now + waitMs).toISOString().slice(11, 16)} UTC.`
}

/** What a request that was answered (or may have been) means. */
function sentOnce(result: Exclude<SubmitResult, { kind: 'not sent' }> | Unreached, wording: SubmitWording): Submitted {
  switch (result.kind) {
    case 'accepted':
    case 'error':
      return result
    case 'refused':
      return { kind: 'error', reason: `${result.reason} Nothing was started.`, refusedWith: result.status }
    case 'unsure': {
      const notSentAgain = `It is not sent again, so that nothing runs twice: look for ${wording.lookFor} on the Mintlify dashboard before you run this step again.`
      return {
        kind: 'unsure',
        reason: result.notTheApi
          ? `${result.reason} In case it was the API after all, the request may have reached it: ${notSentAgain}`
          : `${wording.gerund} may or may not have worked: ${result.reason}. ${notSentAgain}`
      }
    }
    case 'cancelled':
      return {
        kind: 'cancelled',
        reason: `Cancelled while trying to ${wording.verb}: it may or may not have reached the API; look for ${wording.lookFor} on the Mintlify dashboard.`,
        maybeSent: true
      }
  }
}
