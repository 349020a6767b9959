// Once the job is known: say so (the job-id output, the tracking comment), wait for it unless told not to, and
// report how it ended.
import type { RunnerIo } from '../runner/runner-io.ts'
import { logProgress, waitingLine } from '../runner/progress-log.ts'
import type { Settings } from '../runner/settings/settings.ts'
import type { Chosen } from './chosen.ts'
import { previewPhase } from './preview-phase.ts'
import type { Report } from './report.ts'
import type { StepSetup } from './step-setup.ts'
import { FOLLOW_UP_SETTLE_MS, NOT_FOUND_GRACE_MS } from './time-budgets.ts'
import { waitForJob } from './wait-for-job.ts'

export async function followJob(
  chosen: Chosen & { kind: 'job' },
  settings: Settings,
  setup: StepSetup,
  runner: RunnerIo,
  report: Report
): Promise<void> {
  const { clock } = setup
  const { comment } = chosen
  runner.outputs.set('job-id', chosen.jobId)
  comment?.show({ kind: settings.wait ? 'active' : 'started' })
  if (!settings.wait) {
    const elapsedMs = clock.now() - setup.startedAt
    await report({ polls: 0, faults: 0, elapsedMs, job: chosen.job, kind: 'started' }, comment)
    return
  }
  runner.log.info(waitingLine(chosen.jobId))
  const result = await waitForJob({
    ...settings,
    fetchJob: (timeoutMs) => setup.api.getJob(chosen.jobId, timeoutMs),
    timeoutMs: Math.max(setup.deadline - clock.now(), 0),
    clock,
    onEvent: logProgress(runner.log),
    known: chosen.job,
    settleMs: chosen.followedUp ? FOLLOW_UP_SETTLE_MS : undefined,
    notFoundGraceMs: chosen.sent ? NOT_FOUND_GRACE_MS : undefined
  })
  // The job's time ends with its wait; the preview's build is told on its own.
  const waited = { ...result, elapsedMs: clock.now() - setup.startedAt }
  const preview = settings.preview ? await previewPhase(waited, settings, setup, runner, comment) : undefined
  await report(waited, comment, preview)
}
