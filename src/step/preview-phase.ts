// After the wait, with `preview: true`: the preview of the agent's branch, told to the outputs, the log and the
// tracking comment as it goes.
import type { RunnerIo } from '../runner/runner-io.ts'
import type { Settings } from '../runner/settings/settings.ts'
import { lastLogLines } from '../runner/summary.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { PreviewOutcome } from './preview-outcome.ts'
import { buildPreview, previewPlan } from './preview.ts'
import type { StepSetup } from './step-setup.ts'
import type { TrackingComment } from './tracking-comment.ts'
import type { WaitResult } from './wait-for-job.ts'

export async function previewPhase(
  result: WaitResult,
  settings: Settings,
  setup: StepSetup,
  runner: RunnerIo,
  comment: TrackingComment | undefined
): Promise<PreviewOutcome> {
  const plan = previewPlan(result.kind, result.job)
  if (plan.kind === 'skip') {
    runner.log.info(`No preview: ${plan.reason}.`)
    return { kind: 'unavailable', reason: plan.reason }
  }
  const outcome = await buildPreview(plan.branch, {
    ...setup,
    settings,
    log: (message) => {
      runner.log.info(message)
    },
    building: (url) => {
      if (url !== undefined) runner.outputs.set('preview-url', url)
      const preview = { kind: 'building', reason: 'it is building', url } as const
      comment?.show({ kind: 'ended', result, message: '', timeoutMs: settings.timeoutMs, preview })
    }
  })
  tellOutcome(outcome, runner)
  return outcome
}

function tellOutcome(outcome: PreviewOutcome, runner: RunnerIo): void {
  switch (outcome.kind) {
    case 'success':
      runner.log.info(`The preview is built: ${outcome.url ?? '(no address given)'}`)
      return
    case 'failure': {
      const lines = lastLogLines(outcome.build.logs).map((line) => `  | ${forLog(line, 300)}`)
      const summary = forLog(outcome.build.summary ?? 'no summary given', 500)
      runner.log.info([`The preview failed to build: ${summary}. The last lines of its log:`, ...lines].join('\n'))
      return
    }
    case 'building':
      runner.log.warning(
        `The preview was not built yet: ${outcome.reason}. It will be at ${outcome.url ?? '(no address given)'}.`
      )
      return
    case 'unavailable':
    case 'error':
      runner.log.warning(`No preview: ${outcome.reason}.`)
  }
}
