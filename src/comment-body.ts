import { formatDuration } from './duration.ts'
import type { WaitResult } from './poller.ts'
import { forMarkdown } from './untrusted-text.ts'
import { OUTCOME_WORDING } from './verdict.ts'

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

/** What the outcome means, after its heading. */
function detailOf(result: WaitResult, context: CommentContext): string {
  switch (result.kind) {
    case 'completed': {
      const pr = result.job?.pr
      if (pr?.kind !== 'link') return 'the agent changed no files, so there is no pull request.'
      const href = forMarkdown(pr.url.href)
      return `the agent opened a pull request: <a href="${href}">${href}</a>`
    }
    case 'failed':
      return 'the agent hit an unrecoverable error. The Mintlify dashboard shows why.'
    case 'archived':
      return 'the job was archived.'
    case 'timeout':
      return `the job was ${result.job ? `still ${forMarkdown(result.job.status)}` : 'never readable'} after ${formatDuration(context.timeoutMs)}. It may still finish; the Mintlify dashboard shows its progress.`
    case 'error':
    case 'cancelled':
      return forMarkdown(context.message, 1000)
  }
}

/** The comment's Markdown: marker, outcome, the job and a link to the run. All API text is escaped. */
export function renderComment(result: WaitResult, context: CommentContext): string {
  const details = [`job <code>${forMarkdown(context.jobId)}</code>`]
  if (result.job?.model) details.push(`model ${forMarkdown(result.job.model)}`)
  details.push(`waited ${formatDuration(result.elapsedMs)}`)
  details.push(`<a href="${forMarkdown(context.runUrl)}">workflow run</a>`)
  const { emoji, title } = OUTCOME_WORDING[result.kind]
  return [
    commentMarker(context.jobId),
    `${emoji} **${title}**: ${detailOf(result, context)}`,
    '',
    `<sub>${details.join(' · ')}</sub>`
  ].join('\n')
}
