// Which job this step is about, and the request (if any) that makes it so: a new job from the prompt, a follow-up
// to the job given or to the one already on the issue, the job an earlier attempt of this run started, or the job
// given to wait for. Each comes with its tracking comment, when there is to be one.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { GitHubSide } from '../github/open-github.ts'
import type { TrackedComment } from '../github/tracking-comments.ts'
import { promptHash, type TrackedRequest, UNKNOWN_JOB } from '../github/tracking-state.ts'
import type { Settings } from '../runner/settings/settings.ts'
import { findEarlierAttempt, judgeEarlierAttempt, type EarlierAttempt } from './earlier-attempt.ts'
import { chooseRequest } from './request-choice.ts'
import { type SendContext, sendPrompt } from './send-prompt.ts'
import type { StepSetup } from './step-setup.ts'
import { GITHUB_DEADLINE_MS, requestBudget } from './time-budgets.ts'
import type { TrackingComment } from './tracking-comment.ts'

export type Chosen =
  | {
      readonly kind: 'job'
      readonly jobId: string
      /** The job as the request's answer gave it; undefined when only waiting, or when the answer held none. */
      readonly job: AgentJob | undefined
      /** The request sent; undefined when none was. */
      readonly request: TrackedRequest | undefined
      /** A follow-up was sent: the job's earlier, finished status may linger for a moment. */
      readonly followedUp: boolean
      /** This step started or followed up the job: it may not be readable for a moment. */
      readonly sent: boolean
      readonly comment: TrackingComment | undefined
    }
  /** Nothing to wait for: the reason says why (and, when a request may have reached the API, where to look). */
  | {
      readonly kind: 'error' | 'cancelled'
      readonly reason: string
      /** The comment that records what was tried, if any. */
      readonly comment?: TrackingComment | undefined
      /** The job a follow-up was for. */
      readonly jobId?: string | undefined
    }

export interface ChooseContext extends Pick<
  StepSetup,
  'api' | 'github' | 'githubUnavailable' | 'deadline' | 'clock' | 'openComment' | 'compose'
> {
  readonly settings: SendContext['settings'] & Pick<Settings, 'jobId' | 'prompt' | 'followUp' | 'comment'>
  /** GITHUB_RUN_ID, for when GitHub is not opened, and the step (`GITHUB_JOB/GITHUB_ACTION`). */
  readonly runId: string
  readonly step: string
  readonly log: (message: string) => void
}

export async function chooseJob(context: ChooseContext): Promise<Chosen> {
  const { settings, github } = context
  const { prompt } = settings
  if (prompt === undefined) return waitOnly(context, settings.jobId ?? '')
  const read = await readTracked(context)
  if (read.kind !== 'read') return read
  const { tracked } = read
  const run = github?.run ?? { id: context.runId, attempt: 1 }
  if (github && isRerun(context, github)) {
    const wanted = { run: run.id, step: context.step, prompt: promptHash(prompt), project: settings.projectId }
    const earlier = findEarlierAttempt(tracked, { ...wanted, job: settings.jobId })
    const decided = earlier ? await continueEarlierAttempt(context, earlier) : undefined
    if (decided) return decided
  }
  const sending = { ...context, run: { ...run, step: context.step } }
  const choice = chooseRequest(settings, tracked)
  if (choice.kind === 'follow-up') {
    const own = tracked.findLast((comment) => comment.state.job === choice.jobId)
    const start = { state: own?.state ?? { job: choice.jobId, requests: [] }, commentId: own?.id, find: !own }
    return sendPrompt(sending, prompt, choice, context.openComment(start))
  }
  if (choice.untracked) {
    const where = `${github?.target.noun ?? 'the issue'} #${github?.target.number ?? ''}`
    context.log(`No agent job is tracked on ${where} yet: starting a new one.`)
  }
  const placeholder = context.openComment({ state: { job: UNKNOWN_JOB, requests: [] }, find: false })
  return sendPrompt(sending, prompt, { kind: 'start' }, placeholder)
}

/** job-id alone: wait for a job started elsewhere, reporting on its own comment when it has one. */
function waitOnly(context: ChooseContext, jobId: string): Chosen {
  const comment = context.openComment({ state: { job: jobId, requests: [] }, find: true })
  return { kind: 'job', jobId, job: undefined, request: undefined, followedUp: false, sent: false, comment }
}

function isRerun(context: ChooseContext, github: GitHubSide): boolean {
  return context.settings.comment && github.run.attempt > 1
}

/** The tracking comments, when a follow-up or a re-run needs them; else why nothing can be sent. */
async function readTracked(
  context: ChooseContext
): Promise<{ readonly kind: 'read'; readonly tracked: readonly TrackedComment[] } | Chosen> {
  const { settings, github } = context
  const lookForFollowUp = settings.followUp && settings.jobId === undefined
  if (lookForFollowUp && github === undefined) {
    const why = context.githubUnavailable ?? 'GitHub could not be reached'
    return { kind: 'error', reason: `Could not look for the job to follow up: ${why}. Nothing was sent.` }
  }
  if (!github || !(lookForFollowUp || isRerun(context, github))) return { kind: 'read', tracked: [] }
  try {
    return { kind: 'read', tracked: await github.listTracked(GITHUB_DEADLINE_MS) }
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

/** Reads the earlier attempt's job and decides; undefined means: send the prompt as usual. */
async function continueEarlierAttempt(context: ChooseContext, earlier: EarlierAttempt): Promise<Chosen | undefined> {
  const jobId = earlier.comment.state.job
  const timeoutMs = requestBudget(context.settings.requestTimeoutMs, context.deadline, context.clock.now())
  const read = jobId === UNKNOWN_JOB ? undefined : await context.api.getJob(jobId, timeoutMs)
  if (read?.kind === 'cancelled') return { kind: 'cancelled', reason: 'Cancelled before anything was sent.' }
  const verdict = judgeEarlierAttempt(earlier, read, context.clock.now())
  switch (verdict.kind) {
    case 'refuse':
      return { kind: 'error', reason: verdict.reason }
    case 'send again':
      context.log(verdict.note)
      return undefined
    case 'wait': {
      context.log(verdict.note)
      const { comment } = earlier
      const opened = context.openComment({ state: comment.state, commentId: comment.id, find: false })
      const { followedUp } = verdict
      return { kind: 'job', jobId, job: verdict.job, request: undefined, followedUp, sent: false, comment: opened }
    }
  }
}
