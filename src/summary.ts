import { formatDuration } from './duration.ts'
import type { WaitResult } from './poller.ts'
import type { Settings } from './settings.ts'
import { forMarkdown, httpUrl } from './untrusted-text.ts'
import type { Verdict } from './verdict.ts'

const HEADINGS: Record<WaitResult['outcome'], string> = {
  completed: '✅ Mintlify agent job completed',
  archived: '🗄️ Mintlify agent job archived',
  failed: '❌ Mintlify agent job failed',
  timeout: '⏱️ Timed out waiting for a Mintlify agent job',
  error: '❌ Could not wait for a Mintlify agent job',
  cancelled: '⏹️ Stopped waiting for a Mintlify agent job'
}

/** The job summary's HTML: what happened, then the job's details. All API text is escaped. */
export function summaryOf(result: WaitResult, settings: Settings, verdict: Verdict): string {
  const job = result.job
  const pr = httpUrl(job?.prLink)
  const cell = (text: string | null | undefined): string => (text ? forMarkdown(text) : '—')
  const rows: [string, string][] = [
    ['Job', cell(job?.id ?? settings.jobId)],
    ['Project', cell(settings.projectId)],
    ['Status', cell(job?.status ?? 'not read')],
    ['Pull request', pr ? `<a href="${forMarkdown(pr.href)}">${forMarkdown(pr.href)}</a>` : '—'],
    ['Model', cell(job?.model)],
    ['Repository', cell(job?.repository)],
    ['Ref', cell(job?.ref)],
    ['Waited', formatDuration(result.elapsedMs)],
    ['Polls', String(result.polls) + (result.faults > 0 ? ` (${result.faults} failed and retried)` : '')]
  ]
  const table = rows.map(([header, value]) => `<tr><th>${header}</th><td>${value}</td></tr>`).join('')
  return `<h3>${HEADINGS[result.outcome]}</h3>\n<p>${forMarkdown(verdict.message, 2000)}</p>\n<table>${table}</table>\n`
}
