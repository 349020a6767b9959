// A re-run of a run whose earlier attempt sent this prompt: wait for that job while it runs, and take its result
// once it has completed with a pull request; once it has ended otherwise, send the prompt again, unless the earlier
// request may or may not have reached the API: then send nothing.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { PollResult } from '../admin-api/job-answers.ts'
import type { CommentThread } from '../github/thread.ts'
import type { StoredComment } from '../github/comment-store.ts'
import { type Submission, tracksProject, UNKNOWN_JOB } from '../github/tracking-record.ts'
import { isTerminal } from '../text/outcome.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted.ts'
import { FOLLOW_UP_SETTLE_MS, requestBudget } from '../wait/retry.ts'
import type { Decision, StepSetup } from './decision.ts'

/** Whether this is a re-run whose earlier attempts may have recorded what they sent on the tracking comment. */
export function isRerun(setup: StepSetup, thread: CommentThread): boolean {
  return setup.settings.githubUse.comment && thread.run.attempt > 1
}

export interface EarlierAttempt {
  readonly comment: StoredComment
  readonly submission: Submission
}

/** What this attempt sends, to match against what earlier attempts sent. */
export interface WantedSubmission {
  readonly run: string
  /** This attempt: a record of this attempt or a later one cannot be of an earlier attempt, whoever wrote it. */
  readonly attempt: number
  /** The step sending it (`GITHUB_JOB/GITHUB_ACTION`); a request recorded without one matches any step. */
  readonly step: string
  /** The prompt's hash. */
  readonly prompt: string
  readonly project: string
  /** The job the prompt is for, when job-id names one. */
  readonly job: string | undefined
}

/**
 * The latest attempt of this run that sent this same prompt to this project (and to this job, when one is given),
 * across every tracking comment: the latest attempt's request is the one that says what happened last.
 */
export function findEarlierAttempt(
  tracked: readonly StoredComment[],
  wanted: WantedSubmission
): EarlierAttempt | undefined {
  let latest: EarlierAttempt | undefined
  for (const comment of tracked) {
    if (wanted.job !== undefined && comment.state.job !== wanted.job) continue
    if (!tracksProject(comment.state, wanted.project)) continue
    for (const request of comment.state.requests) {
      if (request.run !== wanted.run || request.prompt !== wanted.prompt) continue
      if (request.attempt >= wanted.attempt) continue
      if (request.step !== undefined && request.step !== wanted.step) continue
      if (!latest || request.attempt >= latest.submission.attempt) latest = { comment, submission: request }
    }
  }
  return latest
}

export type Rerun =
  /** The earlier attempt's job is still on it, or completed with a pull request: wait for it, sending nothing. */
  | {
      readonly kind: 'wait'
      readonly jobId: string
      readonly job: AgentJob | undefined
      /** The earlier request was a follow-up that may not show yet. */
      readonly followedUp: boolean
      readonly note: string
    }
  /** It cannot be told whether the earlier request arrived: send nothing. */
  | { readonly kind: 'send nothing'; readonly reason: string }
  /** The earlier job has ended: this attempt sends the prompt again. */
  | { readonly kind: 'send again'; readonly note: string }

const START_A_NEW_RUN =
  'Nothing was sent, so that nothing runs twice. Look on the Mintlify dashboard; to send the prompt anyway, start a new run of the workflow instead of re-running this one.'

/**
 * What to do about an earlier attempt, given what reading its job said (`read` is undefined when the earlier
 * attempt never learned its job's id) and the time now.
 */
export function rerunOf(
  earlier: EarlierAttempt,
  read: Exclude<PollResult, { kind: 'cancelled' }> | undefined,
  now: number
): Rerun {
  const jobId = earlier.comment.state.job
  if (jobId === UNKNOWN_JOB || read === undefined) {
    return {
      kind: 'send nothing',
      reason: `An earlier attempt of this run tried to start an agent job with this prompt, and could not tell whether it did. ${START_A_NEW_RUN}`
    }
  }
  const job = `agent job "${forLog(jobId)}"`
  const readJob = read.kind === 'job' ? read.job : undefined
  if (read.kind === 'permanent' || read.kind === 'not found') {
    // Only an end the API reports lets the prompt go again: a job that cannot be read may still be running.
    const why = read.kind === 'not found' ? read.described : read.reason
    return {
      kind: 'send nothing',
      reason: `An earlier attempt of this run sent this prompt to ${job}, which cannot be read now (${why}), so it may still be running. ${START_A_NEW_RUN}`
    }
  }
  if (!(readJob && isTerminal(readJob.status))) {
    const sent = earlier.submission.unsure ? 'may have sent' : 'already sent'
    const note = `An earlier attempt of this run ${sent} this prompt to ${job}, which is still running: waiting for it instead of sending the prompt again.`
    return { kind: 'wait', jobId, job: readJob, followedUp: false, note }
  }
  return judgeEndedJob(earlier, readJob, now)
}

/** The earlier attempt's job has ended, as the API reports it. */
function judgeEndedJob(earlier: EarlierAttempt, readJob: AgentJob, now: number): Rerun {
  const jobId = earlier.comment.state.job
  const job = `agent job "${forLog(jobId)}"`
  const state = forLog(readJob.status)
  if (earlier.submission.unsure) {
    return {
      kind: 'send nothing',
      reason: `An earlier attempt of this run sent this prompt to ${job}, which is now ${state}, and could not tell whether it arrived. ${START_A_NEW_RUN}`
    }
  }
  const sentAgo = earlier.submission.at === undefined ? undefined : now - earlier.submission.at
  // The earlier attempt's record says how the job ended after the request (see TrackingComment): that end is the
  // follow-up's own, and counts as a start's does.
  const endRecorded = earlier.comment.state.ended !== undefined
  if (
    earlier.submission.kind === 'follow-up' &&
    !endRecorded &&
    sentAgo !== undefined &&
    sentAgo < FOLLOW_UP_SETTLE_MS
  ) {
    // A follow-up takes a moment to show: the job's earlier status may linger, as the wait after a follow-up allows.
    const note = `An earlier attempt of this run sent this prompt to ${job} ${formatDuration(sentAgo)} ago, and the job still shows ${state}: waiting for it instead of sending the prompt again.`
    return { kind: 'wait', jobId, job: readJob, followedUp: true, note }
  }
  if (readJob.status === 'completed' && readJob.pr.kind === 'link') {
    // Most likely the re-run is for what came after (the preview's build, a check): a second job would open a
    // second pull request for the same prompt.
    const note = `An earlier attempt of this run already sent this prompt to ${job}, which completed with a pull request: taking its result instead of sending the prompt again. To send it anyway, start a new run of the workflow.`
    return { kind: 'wait', jobId, job: readJob, followedUp: false, note }
  }
  return {
    kind: 'send again',
    note: `An earlier attempt of this run already sent this prompt to ${job}, which is ${state}: this attempt sends it again.`
  }
}

/** Reads the earlier attempt's job and decides; undefined means: send the prompt as usual. */
export async function continueEarlierAttempt(setup: StepSetup, earlier: EarlierAttempt): Promise<Decision | undefined> {
  const jobId = earlier.comment.state.job
  const timeoutMs = requestBudget(setup.settings.requestTimeoutMs, setup.deadline, setup.clock.now())
  const read = jobId === UNKNOWN_JOB ? undefined : await setup.api.getJob(jobId, timeoutMs)
  if (read?.kind === 'cancelled') {
    return { kind: 'cancelled', reason: 'Cancelled before anything was sent.', nothingSent: true }
  }
  const verdict = rerunOf(earlier, read, setup.clock.date())
  switch (verdict.kind) {
    case 'send nothing':
      return { kind: 'error', reason: verdict.reason }
    case 'send again':
      setup.log.info(verdict.note)
      return undefined
    case 'wait': {
      setup.log.info(verdict.note)
      const { comment } = earlier
      const opened = setup.openComment({ state: comment.state, commentId: comment.id, find: false })
      const { followedUp } = verdict
      return { kind: 'job', jobId, job: verdict.job, submission: undefined, followedUp, sent: false, comment: opened }
    }
  }
}
