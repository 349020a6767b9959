// Which job this step is about, and the request (if any) that makes it so: a new job from the prompt, a follow-up
// to the job given or to the one already on the issue, the job an earlier attempt of this run started, or the job
// given to wait for.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { GitHubSide } from '../github/open-github.ts'
import type { TrackedComment } from '../github/tracking-comments.ts'
import { promptHash, type TrackedRequest, UNKNOWN_JOB } from '../github/tracking-state.ts'
import type { Settings } from '../runner/settings/settings.ts'
import { findEarlierAttempt, judgeEarlierAttempt } from './earlier-attempt.ts'
import { chooseRequest } from './request-choice.ts'
import { type SendContext, sendPrompt } from './send-prompt.ts'
import { GITHUB_DEADLINE_MS, requestBudget } from './time-budgets.ts'

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
      /** This step started or followed up the job: it may not be readable for a moment. */
      readonly sent: boolean
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

export interface ChooseContext extends Omit<SendContext, 'run' | 'settings'> {
  readonly settings: SendContext['settings'] & Pick<Settings, 'jobId' | 'prompt' | 'followUp' | 'comment'>
  /** Present when `comment` or `follow-up` asked for GitHub and it could be opened. */
  readonly github: GitHubSide | undefined
  /** Why GitHub could not be opened, when it was asked for. */
  readonly githubUnavailable: string | undefined
  /** GITHUB_RUN_ID, for when GitHub is not opened. */
  readonly runId: string
}

export async function chooseJob(context: ChooseContext): Promise<Chosen> {
  const { settings, github } = context
  const { prompt } = settings
  if (prompt === undefined) {
    // job-id alone: wait for a job started elsewhere.
    return {
      kind: 'job',
      jobId: settings.jobId ?? '',
      job: undefined,
      request: undefined,
      followedUp: false,
      sent: false
    }
  }
  const read = await readTracked(context)
  if (read.kind !== 'read') return read
  const { tracked } = read
  const sending = { ...context, run: github?.run ?? { id: context.runId, attempt: 1 } }
  if (github && isRerun(context, github)) {
    const earlier = findEarlierAttempt(tracked, {
      run: github.run.id,
      prompt: promptHash(prompt),
      project: settings.projectId,
      job: settings.jobId
    })
    const decided = earlier ? await continueEarlierAttempt(context, earlier) : undefined
    if (decided) return decided
  }
  const choice = chooseRequest(settings, tracked)
  if (choice.kind === 'follow-up') return sendPrompt(sending, prompt, choice)
  if (choice.untracked) {
    const where = `${github?.target.noun ?? 'the issue'} #${github?.target.number ?? ''}`
    context.log(`No agent job is tracked on ${where} yet: starting a new one.`)
  }
  return sendPrompt(sending, prompt, { kind: 'start' })
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
async function continueEarlierAttempt(
  context: ChooseContext,
  earlier: Parameters<typeof judgeEarlierAttempt>[0]
): Promise<Chosen | undefined> {
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
    case 'wait':
      context.log(verdict.note)
      return { kind: 'job', jobId, job: verdict.job, request: undefined, followedUp: verdict.followedUp, sent: false }
  }
}
