// What a step learns from the tracking comments before it sends anything: the job to follow up, and what an
// earlier attempt of this run already sent.
import type { GitHubSide } from '../github/open-github.ts'
import type { TrackedComment } from '../github/tracking-comments.ts'
import { UNKNOWN_JOB } from '../github/tracking-state.ts'
import type { ChooseContext, Chosen } from './chosen.ts'
import { type EarlierAttempt, judgeEarlierAttempt } from './earlier-attempt.ts'
import { GITHUB_DEADLINE_MS, requestBudget } from './time-budgets.ts'

export function isRerun(context: ChooseContext, github: GitHubSide): boolean {
  return context.settings.comment && github.run.attempt > 1
}

/** The tracking comments, when a follow-up or a re-run needs them; else why nothing can be sent. */
export async function readTracked(
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
export async function continueEarlierAttempt(
  context: ChooseContext,
  earlier: EarlierAttempt
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
    case 'wait': {
      context.log(verdict.note)
      const { comment } = earlier
      const opened = context.openComment({ state: comment.state, commentId: comment.id, find: false })
      const { followedUp } = verdict
      return { kind: 'job', jobId, job: verdict.job, request: undefined, followedUp, sent: false, comment: opened }
    }
  }
}
