import type { summary } from '@actions/core'
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

type SummaryTableRow = Parameters<typeof summary.addTable>[0][number]

export interface SummaryContent {
  readonly heading: string
  readonly message: string
  readonly rows: SummaryTableRow[]
}

/** The job summary: what happened, then the job's details. All API text is escaped. */
export function summaryOf(result: WaitResult, settings: Settings, verdict: Verdict): SummaryContent {
  const job = result.job
  const pr = httpUrl(job?.prLink)
  const cell = (text: string | null | undefined): string => (text ? forMarkdown(text) : '—')
  const rows: SummaryTableRow[] = [
    [{ data: 'Job', header: true }, cell(job?.id ?? settings.jobId)],
    [{ data: 'Project', header: true }, cell(settings.projectId)],
    [{ data: 'Status', header: true }, cell(job?.status ?? 'not read')],
    [{ data: 'Pull request', header: true }, pr ? `<a href="${forMarkdown(pr.href)}">${forMarkdown(pr.href)}</a>` : '—'],
    [{ data: 'Model', header: true }, cell(job?.model)],
    [{ data: 'Repository', header: true }, cell(job?.repository)],
    [{ data: 'Ref', header: true }, cell(job?.ref)],
    [{ data: 'Waited', header: true }, formatDuration(result.elapsedMs)],
    [{ data: 'Polls', header: true }, String(result.polls) + (result.faults > 0 ? ` (${result.faults} failed and retried)` : '')]
  ]
  return { heading: HEADINGS[result.outcome], message: forMarkdown(verdict.message, 2000), rows }
}
