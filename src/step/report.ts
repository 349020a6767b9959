// Reporting the result: outputs first (a later step may need them even when this one fails), then the summary,
// the tracking comment, and the verdict.
import { type OutputName, resultOutputs } from '../runner/outputs.ts'
import type { RunnerIo } from '../runner/runner-io.ts'
import type { Settings } from '../runner/settings/settings.ts'
import { type SummaryFacts, summaryOf } from '../runner/summary.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { PreviewOutcome } from './preview-outcome.ts'
import type { TrackingComment } from './tracking-comment.ts'
import { type StepResult, verdictOf } from './verdict.ts'

export type Report = (
  result: StepResult,
  comment: TrackingComment | undefined,
  preview?: PreviewOutcome
) => Promise<void>

export function reporter(
  settings: Pick<Settings, 'timeoutMs' | 'failOn' | 'preview'>,
  runner: RunnerIo,
  facts: SummaryFacts
): Report {
  return async (result, comment, built) => {
    const { timeoutMs, failOn } = settings
    // With preview: true, a step that never reached a completed job has nothing to preview.
    const preview = settings.preview ? (built ?? noPreview(result)) : undefined
    const verdict = verdictOf(result, { jobId: facts.jobId, timeoutMs, failOn }, preview)
    runner.outputs.setAll({ ...resultOutputs(result), ...previewOutputs(preview) })
    const pr = result.job?.pr
    if (pr?.kind === 'dropped') {
      runner.log.warning(
        `The API returned a prLink that is not an http(s) URL ("${forLog(pr.text, 80)}"); it was dropped.`
      )
    }
    const commentFacts = comment && { problem: comment.problem(), protectsReruns: comment.protectsReruns() }
    await runner.writeSummary(summaryOf(result, { ...facts, comment: commentFacts, preview }, verdict))
    if (result.kind === 'started') await comment?.settle()
    else await comment?.end({ kind: 'ended', result, message: verdict.message, timeoutMs, preview })
    if (verdict.fails) runner.fail(verdict.message)
    else runner.log.info(verdict.message)
  }
}

function noPreview(result: StepResult): PreviewOutcome {
  const reason =
    result.kind === 'started' ? 'the step does not wait for the job (wait: false)' : `the step ended ${result.kind}`
  return { kind: 'unavailable', reason }
}

/** `preview-status`, and `preview-url` when the preview has one. */
function previewOutputs(preview: PreviewOutcome | undefined): Partial<Record<OutputName, string>> {
  if (preview === undefined) return {}
  const url = 'url' in preview ? preview.url : undefined
  return { 'preview-status': preview.kind, ...(url === undefined ? {} : { 'preview-url': url }) }
}
