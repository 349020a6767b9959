// Everything the action does on the issue or pull request: where it is (the event's, or issue-number), the
// tracking comments there, the workflow run, and what a failed piece of that work says. Loaded in a chunk of its own,
// only by the runs that use it, so other runs never load Octokit.
import { formatDuration } from '../text/duration.ts'
import type { Redact } from '../text/redact.ts'
import { errorMessage, forLog } from '../text/untrusted.ts'
import { type GitHubClient, isRateLimitAnswer } from './client.ts'
import { httpStatusOf } from './fields.ts'
import { type CommentTarget, resolveCommentTarget } from './event.ts'
import type { GitHubSession, RunInfo, WorkLimits } from './session.ts'
import { type CommentResult, CommentStore, type CommentWrite, type StoredComment } from './tracking-comments.ts'

/** The workflow run: its id, its attempt (1 for the first, 2 for the first re-run...) and its page. */
export interface WorkflowRun {
  readonly id: string
  readonly attempt: number
  readonly url: string
}

/** The issue or pull request the step works on, and the workflow run it reports from. */
export interface GitHub {
  readonly target: CommentTarget
  readonly run: WorkflowRun
  /**
   * The action's own tracking comments on the issue or pull request, oldest report first, read within
   * `deadlineMs`. Throws an Error whose message says what went wrong and what to do.
   */
  listTracked(deadlineMs: number): Promise<StoredComment[]>
  /**
   * Posts or edits a tracking comment, within `deadlineMs`. Never throws. After GitHub has refused a write for want
   * of permission, no other write is sent in this run: `skipped` says so.
   */
  write(write: CommentWrite, deadlineMs: number): Promise<CommentResult | { readonly kind: 'skipped' }>
}

export type OpenedGitHub =
  { readonly kind: 'ready'; readonly github: GitHub } | { readonly kind: 'unavailable'; readonly reason: string }

/** The issue or pull request of the session's event, or `issueNumber` (a batch's digest issue), with its comments. */
export function openGitHub(session: GitHubSession, issueNumber?: number): OpenedGitHub {
  const { settings, run, log, redact } = session
  const resolved = resolveCommentTarget({
    issueNumber: issueNumber ?? settings.issueNumber,
    issueNumberFrom: settings.issueNumber === undefined ? 'digest' : 'issue-number',
    eventName: run.eventName,
    payload: run.payload,
    repo: session.repo
  })
  if (resolved.kind === 'none') return { kind: 'unavailable', reason: resolved.reason }
  const { target } = resolved
  const workflow = workflowRun(target, run)
  const comments = new CommentStore({
    target,
    redact,
    login: () => session.login(),
    warning: (message) => {
      log.warning(message)
    }
  })
  const work = { session, target }
  /** Set once GitHub refuses a write for want of permission: trying again in this run cannot help. */
  let refused = false
  const github: GitHub = {
    target,
    run: workflow,
    listTracked: async (deadlineMs) => {
      const limits = { deadlineMs, cancellable: true }
      const listed = await doGitHubWork(work, limits, 'read the comments of', (client) => comments.list(client))
      if (listed.kind === 'failed') throw new Error(listed.failure, { cause: listed.cause })
      return listed.value
    },
    write: async (write, deadlineMs) => {
      if (refused) return { kind: 'skipped' }
      // A write is never cut off by a cancel (a comment GitHub made anyway would be left behind, and a cancelled
      // run's comment must still say so): its deadline bounds it. The cancelled run's edit skips the write queue.
      const limits = { deadlineMs, cancellable: false, throttled: !write.cancelled }
      const written = await doGitHubWork(work, limits, 'comment on', (client) => comments.write(client, write))
      if (written.kind === 'done') return written.value
      refused = written.refused
      return { kind: 'warning', warning: written.failure }
    }
  }
  return { kind: 'ready', github }
}

type WorkDone<T> =
  | { readonly kind: 'done'; readonly value: T }
  | { readonly kind: 'failed'; readonly failure: string; readonly cause: unknown; readonly refused: boolean }

/** Runs one piece of GitHub work on a client of its own, bounded by its deadline; a failure becomes a message. */
async function doGitHubWork<T>(
  work: { readonly session: GitHubSession; readonly target: CommentTarget },
  limits: WorkLimits & { readonly deadlineMs: number },
  doing: string,
  task: (client: GitHubClient) => Promise<T>
): Promise<WorkDone<T>> {
  const { session, target } = work
  const client = session.client(limits)
  try {
    return { kind: 'done', value: await client.bounded(task(client)) }
  } catch (error) {
    const failure = describeGitHubFailure(error, client, {
      doing,
      target,
      apiUrl: session.apiUrl,
      deadlineMs: limits.deadlineMs,
      cancelled: session.cancelSignal.aborted,
      redact: session.redact
    })
    return { kind: 'failed', failure, cause: error, refused: isPermissionRefusal(error, client) }
  }
}

function workflowRun(target: CommentTarget, run: RunInfo): WorkflowRun {
  const attempt = run.runAttempt
  return {
    id: String(run.runId),
    attempt: Number.isSafeInteger(attempt) && attempt > 0 ? attempt : 1,
    url: `${run.serverUrl}/${target.owner}/${target.repo}/actions/runs/${run.runId}`
  }
}

export interface FailedWork {
  /** `comment on`, `read the comments of`. */
  readonly doing: string
  readonly target: CommentTarget
  readonly apiUrl: string
  readonly deadlineMs: number
  /** Whether the run was cancelled. */
  readonly cancelled: boolean
  readonly redact: Redact
}

const PERMISSION_BY_NOUN: Readonly<Record<CommentTarget['noun'], string>> = {
  issue: 'issues: write',
  'pull request': 'pull-requests: write',
  'issue or pull request': 'issues: write (or pull-requests: write for a pull request)'
}

/** What a 404 on the issue or pull request means, by who named it. */
const NOT_FOUND_ADVICE: Readonly<Record<CommentTarget['from'], string>> = {
  'issue-number': 'Check issue-number.',
  event:
    'It is the one the event is about, so it was deleted or transferred since, or github-token cannot see this repository (GitHub answers 404 to a token without access): check github-token.',
  digest:
    'It is the digest issue this batch found, so it was deleted or transferred since, or github-token cannot see it: pass issue-number to name the digest issue.'
}

/** `Could not comment on issue #12 in acme/docs: ...`, with the advice that fits the cause. */
export function describeGitHubFailure(error: unknown, github: GitHubClient, work: FailedWork): string {
  const { target } = work
  const failed = `Could not ${work.doing} ${target.noun} #${target.number} in ${target.owner}/${target.repo}`
  const rateLimit = github.rateLimitHit()
  if (rateLimit) {
    const which = rateLimit.secondary ? 'secondary rate limit' : 'rate limit'
    return `${failed}: GitHub's ${which} for this token was reached, and it asked to wait ${rateLimit.retryAfterS}s, past the deadline of ${formatDuration(work.deadlineMs)}. The limit resets by itself; many jobs using one token share it.`
  }
  if (github.signal.aborted && work.cancelled) return `${failed}: the run was cancelled.`
  if (github.signal.aborted) {
    return `${failed}: GitHub's API (${forLog(work.redact(work.apiUrl), 200)}) did not finish answering within the deadline of ${formatDuration(work.deadlineMs)}.`
  }
  const noAnswer = github.noAnswer(error)
  if (noAnswer !== undefined) return `${failed}: ${noAnswer}.`
  const status = httpStatusOf(error)
  const detail = `${status === undefined ? '' : `HTTP ${status}: `}${forLog(work.redact(errorMessage(error)), 300)}`
  if (isRateLimitAnswer(error)) {
    return `${failed}: GitHub's rate limit for this token was reached (${detail}). The limit resets by itself; many jobs using one token share it.`
  }
  if (status === 403 && /\blocked\b/i.test(errorMessage(error))) {
    return `${failed}: ${target.noun} #${target.number} is locked (${detail}). Unlock it, or have the action write elsewhere (issue-number).`
  }
  if (status === 403 || status === 401) {
    return `${failed}: the token lacks permission (${detail}). Give the workflow or job "permissions: ${PERMISSION_BY_NOUN[target.noun]}", or pass a github-token that has it.`
  }
  if (status === 404) return `${failed}: it was not found (${detail}). ${NOT_FOUND_ADVICE[target.from]}`
  return `${failed} (${detail}).`
}

/** Whether GitHub refused for want of permission (not a rate limit): writing again in this run cannot help. */
export function isPermissionRefusal(error: unknown, github: GitHubClient): boolean {
  const status = httpStatusOf(error)
  return (status === 401 || status === 403) && github.rateLimitHit() === undefined && !isRateLimitAnswer(error)
}
