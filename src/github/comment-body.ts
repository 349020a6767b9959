// The tracking comment's Markdown: the marker, the stage, the prompts, and the job.
import type { Stage } from '../step/verdict.ts'
import { OUTCOME_WORDING } from '../step/verdict.ts'
import type { WaitResult } from '../step/wait-for-job.ts'
import { formatDuration } from '../text/duration.ts'
import { forMarkdown } from '../text/untrusted-text.ts'
import { markerOf } from './tracking-marker.ts'
import { type TrackingState, UNKNOWN_JOB } from './tracking-state.ts'

/** What the tracking comment says: the job is running, was started without waiting, or how it ended. */
export type CommentView =
  | { readonly kind: 'active' | 'started' }
  /** The wait ended: `message` is the verdict's line. */
  | { readonly kind: 'ended'; readonly result: WaitResult; readonly message: string; readonly timeoutMs: number }

/** What the stage means, after its heading. */
function detailOf(view: CommentView): string {
  if (view.kind !== 'ended') {
    return view.kind === 'active'
      ? 'the agent is working on it. This comment is edited when the job ends.'
      : 'the agent is working on it; this run does not wait for it (`wait: false`).'
  }
  const { result } = view
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
      return `the job was ${result.job ? `still ${forMarkdown(result.job.status)}` : 'never readable'} after ${formatDuration(view.timeoutMs)}. It may still finish; the Mintlify dashboard shows its progress.`
    case 'cancelled':
      return 'this workflow run was cancelled, and the Mintlify agent job may still be running. The Mintlify dashboard shows it.'
    case 'error':
      return forMarkdown(view.message, 1000)
  }
}

function stageOf(view: CommentView): Stage {
  return view.kind === 'ended' ? view.result.kind : view.kind
}

/**
 * The tracking comment's Markdown: the marker (with what follow-ups and re-runs need), the stage, the prompt and
 * each follow-up, and the job with a link to the run. Everything that came from outside is escaped.
 */
export function renderComment(state: TrackingState, view: CommentView, runUrl: string): string {
  const { emoji, title } = OUTCOME_WORDING[stageOf(view)]
  // In <code>, GitHub makes no mention, issue reference or link of the prompt's text: it notifies nobody.
  const asked = state.requests.map(
    (request) =>
      `- ${request.kind === 'start' ? 'Prompt' : 'Follow-up'}: <code>${forMarkdown(request.line, 200)}</code>`
  )
  if (state.omitted) asked.splice(1, 0, `- … ${state.omitted} earlier follow-up${state.omitted === 1 ? '' : 's'}`)
  const details = [state.job === UNKNOWN_JOB ? 'job unknown' : `job <code>${forMarkdown(state.job)}</code>`]
  const job = view.kind === 'ended' ? view.result.job : undefined
  if (job?.model) details.push(`model ${forMarkdown(job.model)}`)
  if (view.kind === 'ended') details.push(`waited ${formatDuration(view.result.elapsedMs)}`)
  details.push(`<a href="${forMarkdown(runUrl)}">workflow run</a>`)
  return [
    markerOf(state),
    `${emoji} **${title}**: ${detailOf(view)}`,
    ...(asked.length > 0 ? ['', ...asked] : []),
    '',
    `<sub>${details.join(' · ')}</sub>`
  ].join('\n')
}
