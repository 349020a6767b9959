// Sending the prompt: as a new job, or as a follow-up to a job. What was sent is recorded for the tracking comment,
// and a request that may have reached the API is recorded as unsure, so that a re-run never sends it again.
import type { AdminApi } from '../admin-api/client.ts'
import { promptHash, type TrackedRequest, UNKNOWN_JOB } from '../github/tracking-state.ts'
import type { Settings } from '../runner/settings/settings.ts'
import { firstLine, forLog } from '../text/untrusted-text.ts'
import type { Chosen } from './choose-job.ts'
import type { StepClock } from './clock.ts'
import { type RequestWording, type Sent, sendRequest } from './send-request.ts'

export interface SendContext {
  readonly settings: Pick<Settings, 'projectId' | 'requestTimeoutMs' | 'pollIntervalMs' | 'maxPollIntervalMs'>
  readonly api: AdminApi
  /** The workflow run and its attempt, recorded with each request. */
  readonly run: { readonly id: string; readonly attempt: number }
  readonly deadline: number
  readonly clock: StepClock
  readonly log: (message: string) => void
}

export type PromptTarget = { readonly kind: 'start' } | { readonly kind: 'follow-up'; readonly jobId: string }

export async function sendPrompt(context: SendContext, prompt: string, target: PromptTarget): Promise<Chosen> {
  const { settings, log } = context
  const project = `project "${forLog(settings.projectId)}"`
  const job = target.kind === 'follow-up' ? `agent job "${forLog(target.jobId)}"` : undefined
  log(
    job === undefined
      ? `Starting an agent job in ${project}: "${firstLine(prompt, 100)}"`
      : `Sending a follow-up to ${job} in ${project}: "${firstLine(prompt, 100)}"`
  )
  const sent = await sendRequest({
    ...settings,
    send: (timeoutMs) =>
      target.kind === 'start'
        ? context.api.createJob(prompt, timeoutMs)
        : context.api.sendFollowUp(target.jobId, prompt, timeoutMs),
    wording: job === undefined ? startWording(project) : followUpWording(job),
    deadline: context.deadline,
    clock: context.clock,
    log
  })
  const request = trackedRequest(context, prompt, target.kind === 'start' ? 'start' : 'follow-up')
  const jobId = target.kind === 'follow-up' ? target.jobId : UNKNOWN_JOB
  if (sent.kind !== 'accepted') return notSent(sent, jobId, request)
  if (target.kind === 'follow-up') {
    log(`The follow-up was accepted by ${job ?? ''}.`)
    return { kind: 'job', jobId, job: sent.job, request, followedUp: true, sent: true }
  }
  log(`Started agent job "${forLog(sent.jobId)}".`)
  return { kind: 'job', jobId: sent.jobId, job: sent.job, request, followedUp: false, sent: true }
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
    at: context.clock.now()
  }
}

/** What a failed request means for the step; one that may have reached the API is recorded as unsure. */
function notSent(sent: Exclude<Sent, { kind: 'accepted' }>, job: string, request: TrackedRequest): Chosen {
  const maybeSent = sent.kind === 'ambiguous' || (sent.kind === 'cancelled' && sent.maybeSent)
  return {
    kind: sent.kind === 'cancelled' ? 'cancelled' : 'error',
    reason: sent.reason,
    ...(maybeSent ? { unsure: { job, request: { ...request, unsure: true } } } : {})
  }
}
