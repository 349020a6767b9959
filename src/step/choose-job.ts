// Which job this step is about, and the request (if any) that makes it so: a new job from the prompt, a follow-up
// to the job given or to the one already on the issue, the job an earlier attempt of this run started, or the job
// given to wait for. Each comes with its tracking comment, when there is to be one.
import { promptHash, UNKNOWN_JOB } from '../github/tracking-state.ts'
import type { ChooseContext, Chosen } from './chosen.ts'
import { findEarlierAttempt } from './earlier-attempt.ts'
import { continueEarlierAttempt, isRerun, readTracked } from './rerun.ts'
import { chooseRequest } from './request-choice.ts'
import { sendPrompt } from './send-prompt.ts'

export type { ChooseContext, Chosen } from './chosen.ts'

export async function chooseJob(context: ChooseContext): Promise<Chosen> {
  const { settings, github } = context
  const { prompt } = settings
  if (prompt === undefined) return waitOnly(context, settings.jobId ?? '')
  const read = await readTracked(context)
  if (read.kind !== 'read') return read
  const { tracked } = read
  const run = github?.run ?? { id: context.runId, attempt: 1 }
  if (github && isRerun(context, github)) {
    const wanted = { run: run.id, attempt: run.attempt, step: context.step, prompt: promptHash(prompt) }
    const earlier = findEarlierAttempt(tracked, { ...wanted, project: settings.projectId, job: settings.jobId })
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
