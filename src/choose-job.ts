// Which job this step is about, and the request (if any) that makes it so: a new job from the prompt, a follow-up
// to the job given or to the one already on the issue, the job an earlier attempt of this run started, or the job
// given to wait for.
import type { AdminApi } from './admin-api.ts'
import { formatDuration } from './duration.ts'
import type { GitHubSide, TrackedComment } from './github-side.ts'
import { isTerminal, type AgentJob } from './job.ts'
import { FOLLOW_UP_SETTLE_MS, type PollerClock } from './poller.ts'
import type { Settings } from './settings.ts'
import { submit, type Submitted, type SubmitWhat } from './submit.ts'
import { firstLine, promptHash, type TrackedRequest, tracksProject, UNKNOWN_JOB } from './tracking.ts'
import { forLog } from './untrusted-text.ts'

export type Chosen =
  | {
      readonly kind: 'job'
      readonly jobId: string
      /** The job as the request's answer gave it; undefined when only waiting. */
      readonly job: AgentJob | undefined
      /** The request sent, for the tracking comment; undefined when none was. */
      readonly request: TrackedRequest | undefined
      /** A follow-up was sent: the job's earlier, finished status may linger for a moment. */
      readonly followedUp: boolean
    }
  /** Nothing to wait for: the reason says why (and, when a request may have reached the API, where to look). */
  | {
      readonly kind: 'error' | 'cancelled'
      readonly reason: string
      /**
       * A request that may or may not have reached the API, and its job (UNKNOWN_JOB for a start): the tracking
       * comment records it, so that a re-run of this run does not send it again.
       */
      readonly unsure?: { readonly job: string; readonly request: TrackedRequest }
    }

export interface ChooseContext {
  readonly settings: Pick<
    Settings,
    | 'projectId'
    | 'jobId'
    | 'prompt'
    | 'followUp'
    | 'comment'
    | 'requestTimeoutMs'
    | 'pollIntervalMs'
    | 'maxPollIntervalMs'
  >
  readonly api: AdminApi
  /** Present when `comment` or `follow-up` asked for GitHub and it could be opened. */
  readonly github: GitHubSide | undefined
  /** Why GitHub could not be opened, when it was asked for. */
  readonly githubUnavailable: string | undefined
  /** When the step's time runs out. */
  readonly deadline: number
  /** How long reading the tracking comments may take. */
  readonly githubDeadlineMs: number
  readonly clock: PollerClock & { readonly cancelled: () => boolean }
  readonly log: (message: string) => void
}

/**
 * The latest attempt of this run that sent this same prompt to this project (and to this job, when one is given),
 * across every tracking comment: the latest attempt's request is the one that says what happened last.
 */
function earlierAttempt(
  tracked: readonly TrackedComment[],
  wanted: { readonly run: string; readonly prompt: string; readonly project: string; readonly job: string | undefined }
): { readonly comment: TrackedComment; readonly request: TrackedRequest } | undefined {
  let latest: { comment: TrackedComment; request: TrackedRequest } | undefined
  for (const comment of tracked) {
    if (wanted.job !== undefined && comment.state.job !== wanted.job) continue
    if (!tracksProject(comment.state, wanted.project)) continue
    for (const request of comment.state.requests) {
      if (request.run !== wanted.run || request.prompt !== wanted.prompt) continue
      if (!latest || request.attempt >= latest.request.attempt) latest = { comment, request }
    }
  }
  return latest
}

export async function chooseJob(context: ChooseContext): Promise<Chosen> {
  const { settings, api, github, log } = context
  const { prompt } = settings
  if (prompt === undefined) {
    // job-id alone: wait for a job started elsewhere.
    return { kind: 'job', jobId: settings.jobId ?? '', job: undefined, request: undefined, followedUp: false }
  }
  const project = `project "${forLog(settings.projectId)}"`
  const request = (kind: TrackedRequest['kind']): TrackedRequest => ({
    kind,
    run: github?.run.id ?? process.env['GITHUB_RUN_ID'] ?? '',
    attempt: github?.run.attempt ?? 1,
    prompt: promptHash(prompt),
    line: firstLine(prompt),
    project: settings.projectId,
    at: context.clock.now()
  })
  const schedule = {
    deadline: context.deadline,
    requestTimeoutMs: settings.requestTimeoutMs,
    pollIntervalMs: settings.pollIntervalMs,
    maxPollIntervalMs: settings.maxPollIntervalMs
  }
  /** What a failed request means for the step; one that may have reached the API is recorded as unsure. */
  const notSent = (sent: Exclude<Submitted, { kind: 'job' }>, job: string, kind: TrackedRequest['kind']): Chosen => {
    const maybeSent = sent.kind === 'ambiguous' || (sent.kind === 'cancelled' && sent.maybeSent)
    return {
      kind: sent.kind === 'cancelled' ? 'cancelled' : 'error',
      reason: sent.reason,
      ...(maybeSent ? { unsure: { job, request: { ...request(kind), unsure: true } } } : {})
    }
  }

  const followUp = async (jobId: string): Promise<Chosen> => {
    const job = `agent job "${forLog(jobId)}"`
    log(`Sending a follow-up to ${job} in ${project}: "${firstLine(prompt, 100)}"`)
    const what: SubmitWhat = {
      verb: `send the follow-up to ${job}`,
      gerund: `Sending the follow-up to ${job}`,
      lookFor: `the follow-up on ${job}`
    }
    const sent = await submit(
      (timeoutMs) => api.sendFollowUp(jobId, prompt, timeoutMs),
      what,
      schedule,
      context.clock,
      log
    )
    if (sent.kind !== 'job') return notSent(sent, jobId, 'follow-up')
    log(`The follow-up was accepted by ${job}.`)
    return { kind: 'job', jobId, job: sent.job, request: request('follow-up'), followedUp: true }
  }

  const rerun = github !== undefined && settings.comment && github.run.attempt > 1
  const lookForFollowUp = settings.followUp && settings.jobId === undefined
  if (lookForFollowUp && github === undefined) {
    return {
      kind: 'error',
      reason: `Could not look for the job to follow up: ${context.githubUnavailable ?? 'GitHub could not be reached'}. Nothing was sent.`
    }
  }
  let tracked: TrackedComment[] = []
  if (github && (lookForFollowUp || rerun)) {
    try {
      tracked = await github.listTracked(context.githubDeadlineMs)
    } catch (error) {
      if (context.clock.cancelled()) return { kind: 'cancelled', reason: 'Cancelled before anything was sent.' }
      const why = error instanceof Error ? error.message : String(error)
      return {
        kind: 'error',
        reason: lookForFollowUp
          ? `Could not look for the job to follow up: ${why} Nothing was sent; run the step again, or pass job-id.`
          : `Could not check whether an earlier attempt of this run already sent this prompt: ${why} Nothing was sent, so that no job runs twice; run the step again, or pass job-id.`
      }
    }
  }

  if (github && rerun) {
    const earlier = earlierAttempt(tracked, {
      run: github.run.id,
      prompt: promptHash(prompt),
      project: settings.projectId,
      job: settings.jobId
    })
    if (earlier) {
      const decided = await continueEarlierAttempt(earlier, context)
      if (decided) return decided
    }
  }

  if (settings.jobId !== undefined) return followUp(settings.jobId)
  if (settings.followUp) {
    const last = tracked.findLast(
      (comment) => comment.state.job !== UNKNOWN_JOB && tracksProject(comment.state, settings.projectId)
    )
    if (last) return followUp(last.state.job)
    log(
      `No agent job is tracked on ${github?.target.noun ?? 'the issue'} #${github?.target.number ?? ''} yet: starting a new one.`
    )
  }

  log(`Starting an agent job in ${project}: "${firstLine(prompt, 100)}"`)
  const what: SubmitWhat = {
    verb: 'start the agent job',
    gerund: 'Starting the agent job',
    lookFor: `a new agent job in ${project}`
  }
  const sent = await submit((timeoutMs) => api.createJob(prompt, timeoutMs), what, schedule, context.clock, log)
  if (sent.kind !== 'job') return notSent(sent, UNKNOWN_JOB, 'start')
  const jobId = sent.job.id ?? ''
  log(`Started agent job "${forLog(jobId)}".`)
  return { kind: 'job', jobId, job: sent.job, request: request('start'), followedUp: false }
}

/**
 * A re-run of a run whose earlier attempt sent this prompt: wait for that job while it runs. Once it has ended, the
 * prompt is sent again, unless the earlier request may or may not have reached the API: then nothing is sent.
 * Undefined means: send it.
 */
async function continueEarlierAttempt(
  earlier: { readonly comment: TrackedComment; readonly request: TrackedRequest },
  context: ChooseContext
): Promise<Chosen | undefined> {
  const { settings, api, log } = context
  const startNewRun =
    'Nothing was sent, so that nothing runs twice. Look on the Mintlify dashboard; to send the prompt anyway, start a new run of the workflow instead of re-running this one.'
  const jobId = earlier.comment.state.job
  if (jobId === UNKNOWN_JOB) {
    return {
      kind: 'error',
      reason: `An earlier attempt of this run tried to start an agent job with this prompt, and could not tell whether it did. ${startNewRun}`
    }
  }
  const job = `agent job "${forLog(jobId)}"`
  const read = await api.getJob(
    jobId,
    Math.min(settings.requestTimeoutMs, Math.max(context.deadline - context.clock.now(), 1000))
  )
  if (read.kind === 'cancelled') return { kind: 'cancelled', reason: 'Cancelled before anything was sent.' }
  const finished = read.kind === 'job' && isTerminal(read.job.status)
  if (!finished && read.kind !== 'permanent') {
    log(
      `An earlier attempt of this run already sent this prompt to ${job}, which is still running: waiting for it instead of sending the prompt again.`
    )
    return {
      kind: 'job',
      jobId,
      job: read.kind === 'job' ? read.job : undefined,
      request: undefined,
      followedUp: false
    }
  }
  const state = read.kind === 'job' ? forLog(read.job.status) : 'no longer readable'
  if (earlier.request.unsure) {
    return {
      kind: 'error',
      reason: `An earlier attempt of this run sent this prompt to ${job}, which is now ${state}, and could not tell whether it arrived. ${startNewRun}`
    }
  }
  const sentAgo = earlier.request.at === undefined ? undefined : context.clock.now() - earlier.request.at
  if (
    read.kind === 'job' &&
    earlier.request.kind === 'follow-up' &&
    sentAgo !== undefined &&
    sentAgo < FOLLOW_UP_SETTLE_MS
  ) {
    // A follow-up takes a moment to show: the job's earlier status may linger, as the wait after a follow-up allows.
    log(
      `An earlier attempt of this run sent this prompt to ${job} ${formatDuration(sentAgo)} ago, and the job still shows ${state}: waiting for it instead of sending the prompt again.`
    )
    return { kind: 'job', jobId, job: read.job, request: undefined, followedUp: true }
  }
  log(
    `An earlier attempt of this run already sent this prompt to ${job}, which is ${state}: this attempt sends it again.`
  )
  return undefined
}
