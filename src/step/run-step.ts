// The step, once its inputs are read: choose the job (starting it or sending a follow-up when asked), keep the
// tracking comment, wait, and report the outcome through the outputs, the summary and the log.
import type { Settings } from '../runner/settings/settings.ts'
import { type Chosen, chooseJob } from './choose-job.ts'
import { followJob } from './follow-job.ts'
import { reporter } from './report.ts'
import type { StepContext } from './step-context.ts'
import { setUpStep } from './step-setup.ts'

export type { StepContext } from './step-context.ts'

export async function runStep(settings: Settings, context: StepContext): Promise<void> {
  const { runner } = context
  const setup = await setUpStep(settings, context)
  const chosen = await chooseJob({
    ...setup,
    settings,
    runId: context.environment.runId,
    step: context.environment.step,
    log: (message) => {
      runner.log.info(message)
    }
  })
  const report = reporter(settings, runner, summaryFacts(settings, chosen))
  if (chosen.kind === 'job') {
    await followJob(chosen, settings, setup, runner, report)
    return
  }
  // The comment, if a request was recorded on it, says why nothing is waited for; a request that may have reached the
  // API stays recorded there, so that a re-run does not send it again.
  const elapsedMs = setup.clock.now() - setup.startedAt
  const result = { polls: 0, faults: 0, elapsedMs, job: undefined, kind: chosen.kind, reason: chosen.reason }
  await report(result, chosen.comment)
}

/** The job and the prompt, for the summary: the request made, or the one that was tried. */
function summaryFacts(settings: Settings, chosen: Chosen) {
  const sentKind = chosen.kind === 'job' ? chosen.request?.kind : settings.jobId === undefined ? 'start' : 'follow-up'
  return {
    projectId: settings.projectId,
    jobId: chosen.jobId,
    sent:
      settings.prompt === undefined || sentKind === undefined
        ? undefined
        : { kind: sentKind === 'start' ? ('prompt' as const) : ('follow-up' as const), prompt: settings.prompt }
  }
}
