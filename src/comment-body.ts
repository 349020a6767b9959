import { formatDuration } from './duration.ts'
import type { WaitResult } from './poller.ts'
import { forMarkdown, httpUrl } from './untrusted-text.ts'

/** A hidden marker per job, so a re-run finds and updates its comment instead of posting another. */
export function commentMarker(jobId: string): string {
  return `<!-- wait-for-mintlify-agent-job: ${encodeURIComponent(jobId)} -->`
}

export interface CommentContext {
  readonly jobId: string
  readonly timeoutMs: number
  /** The workflow run's page. */
  readonly runUrl: string
  /** The verdict's one line, used for errors. */
  readonly message: string
}

function outcomeText(result: WaitResult, context: CommentContext): string {
  switch (result.outcome) {
    case 'completed': {
      const pr = httpUrl(result.job?.prLink)
      return pr
        ? `✅ **The Mintlify agent finished** and opened a pull request: <a href="${forMarkdown(pr.href)}">${forMarkdown(pr.href)}</a>`
        : '✅ **The Mintlify agent finished** without changing any files, so there is no pull request.'
    }
    case 'failed':
      return '❌ **The Mintlify agent job failed**: the agent hit an unrecoverable error. The Mintlify dashboard shows why.'
    case 'archived':
      return '🗄️ **The Mintlify agent job was archived.**'
    case 'timeout':
      return `⏱️ **Stopped waiting after ${formatDuration(context.timeoutMs)}**: the Mintlify agent job was ${
        result.job ? `still ${forMarkdown(result.job.status)}` : 'never readable'
      }. It may still finish; the Mintlify dashboard shows its progress.`
    case 'error':
    case 'cancelled':
      return `❌ **Could not wait for the Mintlify agent job**: ${forMarkdown(context.message, 1000)}`
  }
}

/** The comment's Markdown: marker, outcome, the job and a link to the run. All API text is escaped. */
export function renderComment(result: WaitResult, context: CommentContext): string {
  const details = [`job <code>${forMarkdown(context.jobId)}</code>`]
  if (result.job?.model) details.push(`model ${forMarkdown(result.job.model)}`)
  details.push(`waited ${formatDuration(result.elapsedMs)}`)
  details.push(`<a href="${forMarkdown(context.runUrl)}">workflow run</a>`)
  return [commentMarker(context.jobId), outcomeText(result, context), '', `<sub>${details.join(' · ')}</sub>`].join('\n')
}
