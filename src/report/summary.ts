// The job summary's HTML: what happened, then the job's details. Everything from outside is escaped.
import { headingOf } from '../text/outcome.ts'
import { formatDuration } from '../text/duration.ts'
import { promptLine, forMarkdown } from '../text/untrusted.ts'
import type { BatchPlan } from '../github/tracking-record.ts'
import type { PreviewOutcome } from '../wait/preview.ts'
import { type Guardrail, namedFiles, type StepResult, type Verdict } from './verdict.ts'
import { type Grounding, groundingRow } from './grounding-report.ts'

/** What the step did, beyond how it ended: for the summary and the outputs. */
export interface StepFacts {
  readonly projectId: string
  /** `started`, `followed-up`, or `none` when no request was made. */
  readonly actionTaken: string
  /** With `command` or `label`: the login of who asked. */
  readonly requestedBy?: string | undefined
  /** How many agent jobs this step started. */
  readonly jobsStarted: number
  /** The job started, followed up or waited for; undefined when none is known. */
  readonly jobId: string | undefined
  /** The prompt sent, and how: as a new job's prompt or as a follow-up. */
  readonly sent: { readonly kind: 'prompt' | 'follow-up'; readonly prompt: string } | undefined
  /** With `preview: true`: how the preview of the agent's branch ended. */
  readonly preview?: PreviewOutcome | undefined
  /** With `docs-paths`: whether the agent's pull request kept to them. */
  readonly guardrail?: Guardrail | undefined
  /** With `grounding`: whether the code names its pull request adds are found in the code. */
  readonly grounding?: Grounding | undefined
  /** With `mode: batch`: what the batch covers. */
  readonly batch?: BatchPlan | undefined
  /** With `mode: sweep`: its section of the summary (Markdown, made safe where it was made) and the `sweep` output. */
  readonly sweep?: { readonly summary: string; readonly output: string } | undefined
  /** The tracking comment, with `comment: true`: why it could not be written, and whether a re-run can find the job. */
  readonly comment?: { readonly problem: string | undefined; readonly protectsReruns: boolean } | undefined
}

export function summaryOf(result: StepResult, facts: StepFacts, verdict: Verdict): string {
  // A skip is one line: nothing was sent, so there is no job to show.
  if (facts.sweep !== undefined && result.kind === 'skipped')
    return `<h3>${headingOf('swept')}</h3>\n<p>${forMarkdown(verdict.message, 600)}</p>\n\n${facts.sweep.summary}\n`
  if (result.kind === 'skipped')
    return `<h3>${headingOf('skipped')}</h3>\n<p>${forMarkdown(verdict.message, 600)}</p>\n`
  const job = result.job
  const cell = (text: string | null | undefined): string => (text ? forMarkdown(text) : '—')
  const pr = job?.pr.kind === 'link' ? forMarkdown(job.pr.url.href) : undefined
  const rows: [string, string][] = [
    ['Job', cell(job?.id ?? facts.jobId)],
    ['Project', cell(facts.projectId)],
    ...(facts.requestedBy === undefined ? [] : [['Requested by', cell(facts.requestedBy)] as [string, string]]),
    ...(facts.sent
      ? [
          [facts.sent.kind === 'prompt' ? 'Prompt' : 'Follow-up', cell(promptLine(facts.sent.prompt, 200))] as [
            string,
            string
          ]
        ]
      : []),
    ['Status', cell(job?.status ?? 'not read')],
    ['Pull request', pr ? `<a href="${pr}">${pr}</a>` : '—'],
    ['Model', cell(job?.model)],
    ['Repository', cell(job?.repository)],
    ['Ref', cell(job?.ref)],
    ...previewRows(facts.preview),
    ...guardrailRow(facts.guardrail),
    ...groundingRow(facts.grounding),
    ...batchRow(facts.batch),
    ...commentRow(facts.comment),
    ['Waited', formatDuration(result.elapsedMs)],
    ['Polls', String(result.polls) + (result.faults > 0 ? ` (${result.faults} failed and retried)` : '')]
  ]
  const table = rows.map(([header, value]) => `<tr><th>${header}</th><td>${value}</td></tr>`).join('')
  return `<h3>${headingOf(result.kind)}</h3>\n<p>${forMarkdown(verdict.message, 2000)}</p>\n<table>${table}</table>\n`
}

/** The pull requests a batch sent, and those the gates left out. */
function batchRow(batch: BatchPlan | undefined): [string, string][] {
  if (batch === undefined) return []
  const sent = batch.included.map((pull) => `#${pull.number}`).join(', ') || 'none'
  const skipped = batch.leftOut.map((skip) => `#${skip.number} (${forMarkdown(skip.reason, 200)})`).join(', ')
  const range = `${batch.window.from.slice(0, 7) || 'start'}…${batch.window.to.slice(0, 7)}`
  return [['Batch', `${sent}${skipped ? `; skipped: ${skipped}` : ''}; commits ${range}`]]
}

/** What docs-paths found: the files outside it, or why it was not checked. */
function guardrailRow(guardrail: Guardrail | undefined): [string, string][] {
  if (guardrail === undefined) return []
  const found =
    guardrail.kind === 'passed'
      ? 'passed'
      : guardrail.kind === 'violated'
        ? `violated: ${forMarkdown(namedFiles(guardrail.files), 1000)}`
        : `not checked: ${forMarkdown(guardrail.reason, 300)}`
  return [['docs-paths', found]]
}

/** How the preview went, and for a failed build, its summary and the last lines of its log. */
function previewRows(preview: PreviewOutcome | undefined): [string, string][] {
  if (preview === undefined) return []
  const url = 'url' in preview && preview.url !== undefined ? forMarkdown(preview.url) : undefined
  const where = url === undefined ? '' : ` <a href="${url}">${url}</a>`
  const why =
    preview.kind === 'unavailable' || preview.kind === 'error' || preview.kind === 'building'
      ? `: ${forMarkdown(preview.reason, 500)}`
      : ''
  const rows: [string, string][] = [['Preview', `${preview.kind}${why}${where}`]]
  if (preview.kind === 'failure') {
    const lines = lastLogLines(preview.build.logs).map((line) => forMarkdown(line, 300))
    rows.push(['Build', [forMarkdown(preview.build.summary ?? 'no summary given', 500), ...lines].join('<br>')])
  }
  return rows
}

/** The last lines of a build's log: where a failure says why. */
export function lastLogLines(logs: readonly string[], count = 15): readonly string[] {
  return logs.slice(-count)
}

/** A row only when the tracking comment could not be written: what went wrong, and what it means for re-runs. */
function commentRow(comment: StepFacts['comment']): [string, string][] {
  if (comment?.problem === undefined) return []
  const reruns = comment.protectsReruns
    ? ''
    : ' Re-run protection is off for this run: a re-run cannot find what this run sent, and may send it again.'
  return [['Tracking comment', `${forMarkdown(comment.problem, 600)}${reruns}`]]
}
