import { formatDuration } from './duration.ts'
import type { WaitResult } from './poller.ts'
import type { Settings } from './settings.ts'
import { forMarkdown } from './untrusted-text.ts'
import { headingOf, type Verdict } from './verdict.ts'

/** The job summary's HTML: what happened, then the job's details. All API text is escaped. */
export function summaryOf(
  result: WaitResult,
  settings: Pick<Settings, 'jobId' | 'projectId'>,
  verdict: Verdict
): string {
  const job = result.job
  const cell = (text: string | null | undefined): string => (text ? forMarkdown(text) : '—')
  const pr = job?.pr.kind === 'link' ? forMarkdown(job.pr.url.href) : undefined
  const rows: [string, string][] = [
    ['Job', cell(job?.id ?? settings.jobId)],
    ['Project', cell(settings.projectId)],
    ['Status', cell(job?.status ?? 'not read')],
    ['Pull request', pr ? `<a href="${pr}">${pr}</a>` : '—'],
    ['Model', cell(job?.model)],
    ['Repository', cell(job?.repository)],
    ['Ref', cell(job?.ref)],
    ['Waited', formatDuration(result.elapsedMs)],
    ['Polls', String(result.polls) + (result.faults > 0 ? ` (${result.faults} failed and retried)` : '')]
  ]
  const table = rows.map(([header, value]) => `<tr><th>${header}</th><td>${value}</td></tr>`).join('')
  return `<h3>${headingOf(result.kind)}</h3>\n<p>${forMarkdown(verdict.message, 2000)}</p>\n<table>${table}</table>\n`
}

/** The job summary when the inputs were invalid: what to fix, one problem per line. */
export function inputErrorSummary(problems: string): string {
  const lines = problems.split('\n').map((line) => forMarkdown(line, 1000))
  return `<h3>${headingOf('error')}</h3>\n<p>The step did not start: ${lines.length === 1 ? 'an input is' : 'inputs are'} invalid.</p>\n<ul>${lines.map((line) => `<li>${line}</li>`).join('')}</ul>\n`
}
