// The job summary's HTML: what happened, then the job's details. Everything from outside is escaped.
import { headingOf, type StepResult, type Verdict } from '../step/verdict.ts'
import { formatDuration } from '../text/duration.ts'
import { firstLine, forMarkdown } from '../text/untrusted-text.ts'

export interface SummaryFacts {
  readonly projectId: string
  /** The job started, followed up or waited for; undefined when none is known. */
  readonly jobId: string | undefined
  /** The prompt sent, and how: as a new job's prompt or as a follow-up. */
  readonly sent: { readonly kind: 'prompt' | 'follow-up'; readonly prompt: string } | undefined
  /** The tracking comment, with `comment: true`: why it could not be written, and whether a re-run can find the job. */
  readonly comment?: { readonly problem: string | undefined; readonly protectsReruns: boolean } | undefined
}

export function summaryOf(result: StepResult, facts: SummaryFacts, verdict: Verdict): string {
  const job = result.job
  const cell = (text: string | null | undefined): string => (text ? forMarkdown(text) : '—')
  const pr = job?.pr.kind === 'link' ? forMarkdown(job.pr.url.href) : undefined
  const rows: [string, string][] = [
    ['Job', cell(job?.id ?? facts.jobId)],
    ['Project', cell(facts.projectId)],
    ...(facts.sent
      ? [
          [facts.sent.kind === 'prompt' ? 'Prompt' : 'Follow-up', cell(firstLine(facts.sent.prompt, 200))] as [
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
    ...commentRow(facts.comment),
    ['Waited', formatDuration(result.elapsedMs)],
    ['Polls', String(result.polls) + (result.faults > 0 ? ` (${result.faults} failed and retried)` : '')]
  ]
  const table = rows.map(([header, value]) => `<tr><th>${header}</th><td>${value}</td></tr>`).join('')
  return `<h3>${headingOf(result.kind)}</h3>\n<p>${forMarkdown(verdict.message, 2000)}</p>\n<table>${table}</table>\n`
}

/** A row only when the tracking comment could not be written: what went wrong, and what it means for re-runs. */
function commentRow(comment: SummaryFacts['comment']): [string, string][] {
  if (comment?.problem === undefined) return []
  const reruns = comment.protectsReruns
    ? ''
    : ' Re-run protection is off for this run: a re-run cannot find what this run sent, and may send it again.'
  return [['Tracking comment', `${forMarkdown(comment.problem, 600)}${reruns}`]]
}

/** The job summary when the inputs were invalid: what to fix, one problem per line. */
export function inputErrorSummary(problems: string, what?: string): string {
  const lines = problems.split('\n').map((line) => forMarkdown(line, 1000))
  const why = what ?? (lines.length === 1 ? 'an input is invalid' : 'inputs are invalid')
  return `<h3>${headingOf('error')}</h3>\n<p>The step did not start: ${why}.</p>\n<ul>${lines.map((line) => `<li>${line}</li>`).join('')}</ul>\n`
}
