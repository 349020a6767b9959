// Which job this step is about, and the request (if any) that makes it so: a new job from the prompt, a follow-up to
// the job given or to the one already on the issue, the job an earlier attempt of this run started, or the job given
// to wait for. Each comes with its tracking comment, when there is to be one.
import type { StoredComment } from '../github/tracking-comments.ts'
import { promptHash, tracksProject, UNKNOWN_JOB } from '../github/tracking-record.ts'
import type { Settings } from '../inputs/settings.ts'
import { GITHUB_DEADLINE_MS } from '../wait/retry.ts'
import type { Decision, StepSetup } from './decision.ts'
import { continueEarlierAttempt, findEarlierAttempt, isRerun } from './rerun.ts'
import { type RunRecord, sendPrompt } from './send.ts'

export async function chooseJob(setup: StepSetup): Promise<Decision> {
  const { settings, github } = setup
  const { prompt } = settings
  if (prompt === undefined) return waitOnly(setup, settings.jobId ?? '')
  const read = await readTracked(setup, settings.githubUse.findJob)
  if (read.kind !== 'read') return read
  const { tracked } = read
  const run = runRecord(setup)
  const earlier = await earlierAttempt(setup, tracked, run, prompt)
  if (earlier) return earlier
  const choice = chooseRequest(settings, tracked)
  if (choice.kind === 'follow-up') {
    const own = tracked.findLast((comment) => comment.state.job === choice.jobId)
    const start = { state: own?.state ?? { job: choice.jobId, requests: [] }, commentId: own?.id, find: !own }
    return sendPrompt(setup, run, { prompt, target: choice }, setup.openComment(start))
  }
  if (choice.untracked) {
    const where = `${github?.target.noun ?? 'the issue'} #${github?.target.number ?? ''}`
    setup.log.info(`No agent job is tracked on ${where} yet: starting a new one.`)
  }
  const placeholder = setup.openComment({ state: { job: UNKNOWN_JOB, requests: [] }, find: false })
  return sendPrompt(setup, run, { prompt, target: { kind: 'start' } }, placeholder)
}

/** The workflow run, its attempt and this step, recorded with each request. */
export function runRecord(setup: StepSetup): RunRecord {
  const workflowRun = setup.github?.run ?? { id: setup.runId, attempt: 1 }
  return { id: workflowRun.id, attempt: workflowRun.attempt, step: setup.step }
}

/** On a re-run: what an earlier attempt of this run already did with this prompt decides, when it did anything. */
export async function earlierAttempt(
  setup: StepSetup,
  tracked: readonly StoredComment[],
  run: RunRecord,
  prompt: string
): Promise<Decision | undefined> {
  const { github, settings } = setup
  if (!github || !isRerun(setup, github)) return undefined
  const wanted = { run: run.id, attempt: run.attempt, step: run.step, prompt: promptHash(prompt) }
  const earlier = findEarlierAttempt(tracked, { ...wanted, project: settings.projectId, job: settings.jobId })
  return earlier ? continueEarlierAttempt(setup, earlier) : undefined
}

/** job-id alone: wait for a job started elsewhere, reporting on its own comment when it has one. */
function waitOnly(setup: StepSetup, jobId: string): Decision {
  const comment = setup.openComment({ state: { job: jobId, requests: [] }, find: true })
  return { kind: 'job', jobId, job: undefined, request: undefined, followedUp: false, sent: false, comment }
}

export type RequestChoice =
  | { readonly kind: 'follow-up'; readonly jobId: string }
  /** `untracked`: a follow-up was asked for, but no job of this project is tracked on the issue yet. */
  | { readonly kind: 'start'; readonly untracked: boolean }

/**
 * Where the prompt goes: to job-id; with `follow-up`, to the job of this project whose tracking comment was
 * updated last; otherwise to a new job.
 */
export function chooseRequest(settings: Settings, tracked: readonly StoredComment[]): RequestChoice {
  if (settings.jobId !== undefined) return { kind: 'follow-up', jobId: settings.jobId }
  if (!settings.followUp) return { kind: 'start', untracked: false }
  const last = tracked.findLast(
    (comment) => comment.state.job !== UNKNOWN_JOB && tracksProject(comment.state, settings.projectId)
  )
  return last ? { kind: 'follow-up', jobId: last.state.job } : { kind: 'start', untracked: true }
}

/**
 * The tracking comments, when the step needs them to find its job (`findJob`) or a re-run needs them; else why
 * nothing can be sent.
 */
export async function readTracked(
  setup: StepSetup,
  findJob: boolean
): Promise<{ readonly kind: 'read'; readonly tracked: readonly StoredComment[] } | Decision> {
  const { github } = setup
  if (findJob && github === undefined) {
    const why = setup.githubUnavailable ?? 'GitHub could not be reached'
    return { kind: 'error', reason: `Could not look for the job to follow up: ${why}. Nothing was sent.` }
  }
  if (!github || !(findJob || isRerun(setup, github))) return { kind: 'read', tracked: [] }
  try {
    return { kind: 'read', tracked: await github.listTracked(GITHUB_DEADLINE_MS) }
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
