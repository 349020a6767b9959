// What every mode decides with about the issue or pull request: its tracking comments, the run recorded with each
// submission, what an earlier attempt of this run already did, and the job recorded last.
import type { StoredComment } from '../github/comment-store.ts'
import { promptHash, tracksProject, UNKNOWN_JOB } from '../github/tracking-record.ts'
import { GITHUB_DEADLINE_MS } from '../wait/retry.ts'
import type { Decision, StepSetup } from './decision.ts'
import { continueEarlierAttempt, findEarlierAttempt, isRerun } from './rerun.ts'
import type { RunRecord } from './send.ts'

/** The workflow run, its attempt and this step, recorded with each request. */
export function runRecord(setup: StepSetup): RunRecord {
  const workflowRun = setup.thread?.run ?? { id: setup.runId, attempt: 1 }
  return { id: workflowRun.id, attempt: workflowRun.attempt, step: setup.step }
}

/** On a re-run: what an earlier attempt of this run already did with this prompt decides, when it did anything. */
export async function earlierAttempt(
  setup: StepSetup,
  tracked: readonly StoredComment[],
  run: RunRecord,
  prompt: string
): Promise<Decision | undefined> {
  const { thread, settings } = setup
  if (!thread || !isRerun(setup, thread)) return undefined
  const wanted = { run: run.id, attempt: run.attempt, step: run.step, prompt: promptHash(prompt) }
  const earlier = findEarlierAttempt(tracked, { ...wanted, project: settings.projectId, job: settings.jobId })
  return earlier ? continueEarlierAttempt(setup, earlier) : undefined
}

/**
 * The tracking comments, when the step needs them to find its job (`findJob`) or a re-run needs them; else why
 * nothing can be sent.
 */
export async function readTracked(
  setup: StepSetup,
  findJob: boolean
): Promise<{ readonly kind: 'read'; readonly tracked: readonly StoredComment[] } | Decision> {
  const { thread } = setup
  if (findJob && thread === undefined) {
    const why = setup.threadUnavailable ?? 'GitHub could not be reached'
    return { kind: 'error', reason: `Could not look for the job to follow up: ${why}. Nothing was sent.` }
  }
  if (!thread || !(findJob || isRerun(setup, thread))) return { kind: 'read', tracked: [] }
  try {
    return { kind: 'read', tracked: await thread.listTracked(GITHUB_DEADLINE_MS) }
  } catch (error) {
    if (setup.clock.cancelled()) {
      return { kind: 'cancelled', reason: 'Cancelled before anything was sent.', nothingSent: true }
    }
    const why = error instanceof Error ? error.message : String(error)
    return {
      kind: 'error',
      reason: findJob
        ? `Could not look for the job to follow up: ${why} Nothing was sent; run the step again, or pass job-id.`
        : `Could not check whether an earlier attempt of this run already sent this prompt: ${why} Nothing was sent, so that no job runs twice; run the step again, or pass job-id.`
    }
  }
}

/** The job of this project recorded last on the issue or pull request. */
export function lastTrackedJob(tracked: readonly StoredComment[], projectId: string): StoredComment | undefined {
  return tracked.findLast((comment) => comment.state.job !== UNKNOWN_JOB && tracksProject(comment.state, projectId))
}
