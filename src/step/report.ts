// Reporting the result: outputs first (a later step may need them even when this one fails), then the summary,
// the tracking comment, and the verdict.
import type { RunnerIo } from '../runner/runner-io.ts'
import { resultOutputs } from '../runner/outputs.ts'
import type { Settings } from '../runner/settings/settings.ts'
import { type SummaryFacts, summaryOf } from '../runner/summary.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { TrackingComment } from './tracking-comment.ts'
import { type StepResult, verdictOf } from './verdict.ts'

export type Report = (result: StepResult, comment: TrackingComment | undefined) => Promise<void>

export function reporter(
  settings: Pick<Settings, 'timeoutMs' | 'failOn'>,
  runner: RunnerIo,
  facts: SummaryFacts
): Report {
  return async (result, comment) => {
    const { timeoutMs, failOn } = settings
    const verdict = verdictOf(result, { jobId: facts.jobId, timeoutMs, failOn })
    runner.outputs.setAll(resultOutputs(result))
    const pr = result.job?.pr
    if (pr?.kind === 'dropped') {
      runner.log.warning(
        `The API returned a prLink that is not an http(s) URL ("${forLog(pr.text, 80)}"); it was dropped.`
      )
    }
    const commentFacts = comment && { problem: comment.problem(), protectsReruns: comment.protectsReruns() }
    await runner.writeSummary(summaryOf(result, { ...facts, comment: commentFacts }, verdict))
    if (result.kind === 'started') await comment?.settle()
    else await comment?.end({ kind: 'ended', result, message: verdict.message, timeoutMs })
    if (verdict.fails) runner.fail(verdict.message)
    else runner.log.info(verdict.message)
  }
}
