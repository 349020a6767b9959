// The tracking comment's Markdown below its marker: the stage, the prompts, and the job.
import { type BatchWindow, type TrackingState, UNKNOWN_JOB } from '../github/tracking-record.ts'
import { type Stage, STAGE_WORDING } from '../text/outcome.ts'
import { formatDuration } from '../text/duration.ts'
import { codeSpan, forLog, forMarkdown } from '../text/untrusted.ts'
import type { PreviewOutcome } from '../wait/preview.ts'
import { type Guardrail, namedFiles, NO_PULL_REQUEST, type StepResult } from './verdict.ts'
import { type Grounding, groundingLines } from './grounding-report.ts'

/**
 * What the tracking comment says: a prompt is being sent, the job is running, was started without waiting, or how
 * it ended.
 */
export type CommentView =
  | { readonly kind: 'sending' | 'active' | 'started' }
  /** The wait ended: `message` is the verdict's line; `preview`, how the preview of the agent's branch is going. */
  | {
      readonly kind: 'ended'
      readonly result: StepResult
      readonly message: string
      readonly timeoutMs: number
      readonly preview?: PreviewOutcome | undefined
      readonly guardrail?: Guardrail | undefined
      readonly grounding?: Grounding | undefined
    }
  /**
   * With `mode: pair`: the code pull request ended, and its docs pull request was told (or closed), or it was reopened,
   * and so was its docs pull request; `notes`, what failed.
   */
  | {
      readonly kind: 'source'
      readonly how: 'merged' | 'closed' | 'reopened'
      readonly docs: string
      readonly notes: readonly string[]
      /** It was closed or merged already, by someone else, and left as it is. */
      readonly already?: 'was-closed' | 'merged'
    }
  /**
   * With `mode: pair`: the job took no follow-up (`reason`, the API's refusal), so a new job takes over its pull
   * request; `next`, the address of that job's tracking comment, when it was written.
   */
  | { readonly kind: 'superseded'; readonly reason: string; readonly next: string | undefined }

/**
 * Text from outside, on one line, as a code span: GitHub makes no mention, issue reference, link or markup of it,
 * so it notifies nobody; no backtick inside can end it.
 */
const asCode = (text: string, max?: number): string => codeSpan(forLog(text, max))

/** What the stage means, after its heading. */
const WAITING_DETAIL: Readonly<Record<Exclude<CommentView['kind'], 'ended' | 'source' | 'superseded'>, string>> = {
  sending:
    'this run records the request here before sending it. If this comment still says so once the run has ended, the run stopped before it could tell whether the request arrived, and re-running it sends nothing, so that no job starts twice.',
  active: 'the agent is working on it. This comment is edited when the job ends.',
  started: 'the agent is working on it; this run does not wait for it (`wait: false`).'
}

/** A link to a URL from outside: shown as text, escaped, so it can link and mention nobody. */
const link = (url: string): string => `<a href="${forMarkdown(url)}">${forMarkdown(url)}</a>`

function detailOf(view: CommentView): string {
  if (view.kind === 'source') {
    const already = view.already === 'merged' ? 'was merged already' : 'was closed already'
    const done = view.already
      ? `${already}, so it is left as it is`
      : { merged: 'was told', closed: 'was closed', reopened: 'was reopened' }[view.how]
    const failed = view.notes.length > 0 ? ` Not all went through: ${asCode(view.notes.join(' '), 600)}` : ''
    return `its docs pull request ${link(view.docs)} ${done}.${failed}`
  }
  if (view.kind === 'superseded') {
    const next = view.next === undefined ? 'the workflow run' : `its tracking comment, ${link(view.next)}`
    return `this job took no follow-up (${asCode(view.reason, 300)}), so a new job is started for the whole pull request, to replace its docs pull request: see ${next}.`
  }
  if (view.kind !== 'ended') return WAITING_DETAIL[view.kind]
  const { result } = view
  switch (result.kind) {
    case 'completed': {
      const pr = result.job?.pr
      if (pr?.kind !== 'link') return `the agent ${NO_PULL_REQUEST}.`
      return `the agent opened a pull request: ${link(pr.url.href)}`
    }
    case 'failed':
      return 'the agent hit an unrecoverable error. The Mintlify dashboard shows why.'
    case 'archived':
      return 'the job was archived.'
    case 'timeout':
      return `the job was ${result.job ? `still ${asCode(result.job.status)}` : 'never readable'} after ${formatDuration(view.timeoutMs)}. It may still finish; the Mintlify dashboard shows its progress.`
    case 'cancelled':
      return result.nothingSent
        ? 'this workflow run was cancelled before it sent the prompt, so nothing was started or sent; a re-run of it sends the prompt.'
        : 'this workflow run was cancelled, and the Mintlify agent job may still be running. The Mintlify dashboard shows it.'
    case 'started':
      return WAITING_DETAIL.started
    case 'skipped':
    case 'rate-limited':
    case 'error':
      return asCode(view.message, 1000)
  }
}

/** The preview's line: building (with its address), ready, failed and why, or why there is none. */
function previewLine(preview: PreviewOutcome): string {
  const link = (url: string | undefined) =>
    url === undefined ? '' : ` <a href="${forMarkdown(url)}">${forMarkdown(url)}</a>`
  switch (preview.kind) {
    case 'building':
      return `🔄 **Preview building**:${link(preview.url) || ' the build is queued.'}`
    case 'success':
      return `🔍 **Preview ready**:${link(preview.url)}`
    case 'failure':
      return `❌ **Preview failed to build**: ${asCode(preview.build.summary ?? 'no summary given', 300)}${link(preview.url)}`
    case 'unavailable':
    case 'error':
      return `**No preview**: ${asCode(preview.reason, 300)}`
  }
}

function stageOf(view: CommentView): Stage {
  if (view.kind === 'source') return view.how
  if (view.kind === 'superseded') return view.kind
  return view.kind === 'ended' ? view.result.kind : view.kind
}

/** What a batch covers: its pull requests (numbers, which GitHub links, on the repository's own page) and commits. */
function batchLine(batch: BatchWindow): string {
  const skipped = new Set(batch.skipped ?? [])
  const sent = batch.pulls.filter((number) => !skipped.has(number)).map((number) => `#${number}`)
  const pulls = sent.length > 0 ? sent.join(', ') : 'no pull request'
  const gated =
    skipped.size > 0 ? ` (skipped by the gates: ${[...skipped].map((number) => `#${number}`).join(', ')})` : ''
  const from = batch.from === '' ? 'the start of `batch-since`' : asCode(batch.from.slice(0, 7))
  return `**Batch**: ${pulls}${gated}; the commits after ${from} up to ${asCode(batch.to.slice(0, 7))}.`
}

/** What the guardrail found, when it found something to say. */
function guardrailLine(guardrail: Guardrail | undefined): string[] {
  if (guardrail === undefined || guardrail.kind === 'passed') return []
  if (guardrail.kind === 'unchecked') return ['', `**docs-paths not checked**: ${asCode(guardrail.reason, 300)}`]
  return ['', `⛔ **Files outside docs-paths**: ${asCode(namedFiles(guardrail.files), 1000)}`]
}

/**
 * The tracking comment's Markdown below its marker: the stage, the prompt and each follow-up, and the job with a link
 * to the run. Everything that came from outside is escaped.
 */
export function renderComment(state: TrackingState, view: CommentView, runUrl: string): string {
  const { emoji, title } = STAGE_WORDING[stageOf(view)]
  const asked = state.requests.map(
    (request) => `- ${request.kind === 'start' ? 'Prompt' : 'Follow-up'}: ${asCode(request.line, 200)}`
  )
  if (state.omitted) asked.splice(1, 0, `- … ${state.omitted} earlier follow-up${state.omitted === 1 ? '' : 's'}`)
  const details = [state.job === UNKNOWN_JOB ? 'job unknown' : `job ${asCode(state.job)}`]
  const job = view.kind === 'ended' ? view.result.job : undefined
  if (job?.model) details.push(`model ${asCode(job.model)}`)
  if (view.kind === 'ended') details.push(`waited ${formatDuration(view.result.elapsedMs)}`)
  details.push(`<a href="${forMarkdown(runUrl)}">workflow run</a>`)
  const preview = view.kind === 'ended' && view.preview ? ['', previewLine(view.preview)] : []
  const replaces = state.supersedes ? ['', `Replaces the docs pull request ${link(state.supersedes)}.`] : []
  const batch = state.batch ? ['', batchLine(state.batch)] : []
  return [
    `${emoji} **${title}**: ${detailOf(view)}`,
    ...preview,
    ...(view.kind === 'ended' ? guardrailLine(view.guardrail) : []),
    ...replaces,
    ...batch,
    ...(asked.length > 0 ? ['', ...asked] : []),
    // After the prompts' list: its names are a list of their own, never read as one more prompt.
    ...(view.kind === 'ended' ? groundingLines(view.grounding) : []),
    '',
    `<sub>${details.join(' · ')}</sub>`
  ].join('\n')
}
