// The step, once its inputs are read: choose the job (starting it or sending a follow-up when asked), keep the
// tracking comment, wait, and report the outcome through the outputs, the summary and the log.
import type { Settings } from '../runner/settings/settings.ts'
import { type Chosen, chooseJob } from './choose-job.ts'
import { followJob } from './follow-job.ts'
import { reporter } from './report.ts'
import type { StepContext } from './step-context.ts'
import { setUpStep } from './step-setup.ts'
import { trackingComment } from './tracking-comment.ts'

export type { StepContext } from './step-context.ts'

export async function runStep(settings: Settings, context: StepContext): Promise<void> {
  const { runner } = context
  const setup = await setUpStep(settings, context)
  const { github, clock } = setup
  const chosen = await chooseJob({
    ...setup,
    settings,
    runId: context.environment.runId,
    log: (message) => {
      runner.log.info(message)
    }
  })
  const report = reporter(settings, runner, summaryFacts(settings, chosen))
  if (chosen.kind === 'job') {
    await followJob(chosen, settings, setup, runner, report)
    return
  }
  // A request that may have reached the API is recorded on the issue, so that a re-run does not send it again.
  const { unsure } = chosen
  const comment =
    unsure && settings.comment && github
      ? trackingComment(github, { job: unsure.job, add: [unsure.request] }, runner)
      : undefined
  const elapsedMs = clock.now() - setup.startedAt
  await report({ polls: 0, faults: 0, elapsedMs, job: undefined, kind: chosen.kind, reason: chosen.reason }, comment)
}

/** The job and the prompt, for the summary: the request made, or the one that was tried. */
function summaryFacts(settings: Settings, chosen: Chosen) {
  const sentKind = chosen.kind === 'job' ? chosen.request?.kind : settings.jobId === undefined ? 'start' : 'follow-up'
  return {
    projectId: settings.projectId,
    jobId: chosen.kind === 'job' ? chosen.jobId : chosen.unsure?.job || undefined,
    sent:
      settings.prompt === undefined || sentKind === undefined
        ? undefined
        : { kind: sentKind === 'start' ? ('prompt' as const) : ('follow-up' as const), prompt: settings.prompt }
  }
}
