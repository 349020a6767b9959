// Sending the prompt: as a new job, or as a follow-up to a job. The request is recorded on the tracking comment
// before it is sent, as unsure; once the answer says what happened, the record says so too, so that a re-run never
// sends again a request that may have reached the API.
import type { AdminApi } from '../admin-api/client.ts'
import { promptHash, type TrackedRequest } from '../github/tracking-state.ts'
import type { Settings } from '../runner/settings/settings.ts'
import { firstLine, forLog } from '../text/untrusted-text.ts'
import type { Chosen } from './choose-job.ts'
import type { StepClock } from './clock.ts'
import { type RequestWording, sendRequest } from './send-request.ts'
import type { TrackingComment } from './tracking-comment.ts'

export interface SendContext {
  readonly settings: Pick<Settings, 'projectId' | 'requestTimeoutMs' | 'pollIntervalMs' | 'maxPollIntervalMs'>
  readonly api: AdminApi
  /** The workflow run and its attempt, and the step (`GITHUB_JOB/GITHUB_ACTION`), recorded with each request. */
  readonly run: { readonly id: string; readonly attempt: number; readonly step: string }
  readonly deadline: number
  readonly clock: StepClock
  readonly log: (message: string) => void
  /** The prompt as it is sent (with `context: auto`, followed by what changed). */
  readonly compose: (prompt: string) => Promise<string>
}

export type PromptTarget = { readonly kind: 'start' } | { readonly kind: 'follow-up'; readonly jobId: string }

export async function sendPrompt(
  context: SendContext,
  prompt: string,
  target: PromptTarget,
  comment: TrackingComment | undefined
): Promise<Chosen> {
  const { settings, log } = context
  const project = `project "${forLog(settings.projectId)}"`
  const job = target.kind === 'follow-up' ? `agent job "${forLog(target.jobId)}"` : undefined
  log(
    job === undefined
      ? `Starting an agent job in ${project} with the prompt: ${firstLine(prompt, 100)}`
      : `Sending a follow-up to ${job} in ${project}: ${firstLine(prompt, 100)}`
  )
  // The record and a re-run's search go by the prompt as the user wrote it, not the text read from GitHub.
  const text = await context.compose(prompt)
  const request = trackedRequest(context, prompt, target.kind)
  await comment?.recordBeforeSending(request)
  if (context.clock.cancelled()) {
    comment?.withdraw(request)
    return { kind: 'cancelled', reason: 'Cancelled before anything was sent.', comment }
  }
  const sent = await sendRequest({
    ...settings,
    send: (timeoutMs) =>
      target.kind === 'start'
        ? context.api.createJob(text, timeoutMs)
        : context.api.sendFollowUp(target.jobId, text, timeoutMs),
    wording: job === undefined ? startWording(project) : followUpWording(job),
    deadline: context.deadline,
    clock: context.clock,
    log
  })
  if (sent.kind !== 'accepted') {
    // A request that may have reached the API stays on record, unsure: a re-run of this run sends nothing.
    const maybeSent = sent.kind === 'ambiguous' || (sent.kind === 'cancelled' && sent.maybeSent)
    if (!maybeSent) comment?.withdraw(request)
    const jobId = target.kind === 'follow-up' ? target.jobId : undefined
    return { kind: sent.kind === 'cancelled' ? 'cancelled' : 'error', reason: sent.reason, comment, jobId }
  }
  comment?.accepted(request, sent.jobId)
  log(job === undefined ? `Started agent job "${forLog(sent.jobId)}".` : `The follow-up was accepted by ${job}.`)
  const followedUp = target.kind === 'follow-up'
  return { kind: 'job', jobId: sent.jobId, job: sent.job, request, followedUp, sent: true, comment }
}

function startWording(project: string): RequestWording {
  return { verb: 'start the agent job', gerund: 'Starting the agent job', lookFor: `a new agent job in ${project}` }
}

function followUpWording(job: string): RequestWording {
  return {
    verb: `send the follow-up to ${job}`,
    gerund: `Sending the follow-up to ${job}`,
    lookFor: `the follow-up on ${job}`
  }
}

function trackedRequest(context: SendContext, prompt: string, kind: TrackedRequest['kind']): TrackedRequest {
  return {
    kind,
    run: context.run.id,
    attempt: context.run.attempt,
    prompt: promptHash(prompt),
    line: firstLine(prompt),
    project: context.settings.projectId,
    at: context.clock.now(),
    ...(context.run.step ? { step: context.run.step } : {})
  }
}
