// Which job this step is about, and the request (if any) that makes it so: a new job from the prompt, a follow-up to
// the job given or to the one already on the issue, the job an earlier attempt of this run started, or the job given
// to wait for. Each comes with its tracking comment, when there is to be one.
import type { StoredComment } from '../../github/comment-store.ts'
import { UNKNOWN_JOB } from '../../github/tracking-record.ts'
import type { Settings } from '../../inputs/settings.ts'
import type { Decision, StepSetup } from '../../decide/decision.ts'
import { beforeSpending } from '../../decide/gates.ts'
import { sendPrompt } from '../../decide/send.ts'
import { earlierAttempt, lastTrackedJob, readTracked, runRecord } from '../../decide/tracked.ts'

/** `mode: single`: the gates and the job cap first, then the job to start, follow up or wait for. */
export async function decideSingle(setup: StepSetup): Promise<Decision> {
  return (await beforeSpending(setup)) ?? chooseJob(setup)
}

export async function chooseJob(setup: StepSetup): Promise<Decision> {
  const { settings, thread } = setup
  const { prompt } = settings
  if (prompt === undefined) return waitOnly(setup, settings.jobId ?? '')
  const read = await readTracked(setup, settings.githubUse.findJob)
  if (read.kind !== 'read') return read
  const { tracked } = read
  const run = runRecord(setup)
  const earlier = await earlierAttempt(setup, tracked, run, prompt)
  if (earlier) return earlier
  const choice = chooseTarget(settings, tracked)
  if (choice.kind === 'follow-up') {
    const own = tracked.findLast((comment) => comment.state.job === choice.jobId)
    const start = { state: own?.state ?? { job: choice.jobId, requests: [] }, commentId: own?.id, find: !own }
    return sendPrompt(setup, run, { prompt, target: choice }, setup.openComment(start))
  }
  if (choice.untracked) {
    const where = `${thread?.target.noun ?? 'the issue'} #${thread?.target.number ?? ''}`
    setup.log.info(`No agent job is tracked on ${where} yet: starting a new one.`)
  }
  const placeholder = setup.openComment({ state: { job: UNKNOWN_JOB, requests: [] }, find: false })
  return sendPrompt(setup, run, { prompt, target: { kind: 'start' } }, placeholder)
}

/** job-id alone: wait for a job started elsewhere, reporting on its own comment when it has one. */
function waitOnly(setup: StepSetup, jobId: string): Decision {
  const comment = setup.openComment({ state: { job: jobId, requests: [] }, find: true })
  return { kind: 'job', jobId, job: undefined, submission: undefined, followedUp: false, sent: false, comment }
}

export type TargetChoice =
  | { readonly kind: 'follow-up'; readonly jobId: string }
  /** `untracked`: a follow-up was asked for, but no job of this project is tracked on the issue yet. */
  | { readonly kind: 'start'; readonly untracked: boolean }

/**
 * Where the prompt goes: to job-id; with `follow-up`, to the job of this project whose tracking comment was
 * updated last; otherwise to a new job.
 */
export function chooseTarget(settings: Settings, tracked: readonly StoredComment[]): TargetChoice {
  if (settings.jobId !== undefined) return { kind: 'follow-up', jobId: settings.jobId }
  if (!settings.followUp) return { kind: 'start', untracked: false }
  const last = lastTrackedJob(tracked, settings.projectId)
  return last ? { kind: 'follow-up', jobId: last.state.job } : { kind: 'start', untracked: true }
}
