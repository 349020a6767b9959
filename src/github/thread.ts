// Everything the action does on the issue or pull request: where it is (the event's, or issue-number), the
// tracking comments there, the workflow run; a failed piece of that work is worded by failure.ts. Loaded in a chunk of its own,
// only by the runs that use it, so other runs never load Octokit.
import type { GitHubClient } from './octokit.ts'
import { type CommentTarget, resolveCommentTarget } from './event.ts'
import { describeFailure, failureOf, isPermissionRefusal } from './failure.ts'
import type { GitHubSession, RunInfo, WorkLimits } from './session.ts'
import {
  type CommentResult,
  CommentStore,
  type CommentWrite,
  CommentWriter,
  type StoredComment
} from './comment-store.ts'

/** The workflow run: its id, its attempt (1 for the first, 2 for the first re-run...) and its page. */
export interface WorkflowRun {
  readonly id: string
  readonly attempt: number
  readonly url: string
}

/** The issue or pull request the step works on, and the workflow run it reports from. */
export interface CommentThread {
  readonly target: CommentTarget
  readonly run: WorkflowRun
  /**
   * The action's own tracking comments on the issue or pull request, oldest report first, read within
   * `deadlineMs`. Throws an Error whose message says what went wrong and what to do.
   */
  listTracked(deadlineMs: number): Promise<StoredComment[]>
  /**
   * Posts or edits a tracking comment, within `deadlineMs`. Never throws. After GitHub has refused a write for want
   * of permission, no other write is sent in this run: `withheld` says so.
   */
  write(write: CommentWrite, deadlineMs: number): Promise<CommentResult | { readonly kind: 'withheld' }>
}

export type OpenedThread =
  { readonly kind: 'ready'; readonly thread: CommentThread } | { readonly kind: 'unavailable'; readonly reason: string }

/** The issue or pull request of the session's event, or `issueNumber` (a batch's digest issue), with its comments. */
export function openThread(session: GitHubSession, issueNumber?: number): OpenedThread {
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
  const writer = new CommentWriter(comments, { target, redact })
  const work = { session, target }
  /** Set once GitHub refuses a write for want of permission: trying again in this run cannot help. */
  let refused = false
  const thread: CommentThread = {
    target,
    run: workflow,
    listTracked: async (deadlineMs) => {
      const limits = { deadlineMs, cancellable: true }
      const listed = await doGitHubWork(work, limits, 'read the comments of', (client) => comments.list(client))
      if (listed.kind === 'failed') throw new Error(listed.failure, { cause: listed.cause })
      return listed.value
    },
    write: async (write, deadlineMs) => {
      if (refused) return { kind: 'withheld' }
      // A write is never cut off by a cancel (a comment GitHub made anyway would be left behind, and a cancelled
      // run's comment must still say so): its deadline bounds it. The cancelled run's edit skips the write queue.
      const limits = { deadlineMs, cancellable: false, throttled: !write.cancelled }
      const written = await doGitHubWork(work, limits, 'comment on', (client) => writer.write(client, write))
      if (written.kind === 'done') return written.value
      refused = written.refused
      return { kind: 'warning', warning: written.failure }
    }
  }
  return { kind: 'ready', thread }
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
    const failure = failureOf(error, client, session.cancelSignal.aborted)
    const work = { doing, target, apiUrl: session.apiUrl, deadlineMs: limits.deadlineMs, redact: session.redact }
    return {
      kind: 'failed',
      failure: describeFailure(failure, work),
      cause: error,
      refused: isPermissionRefusal(failure)
    }
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
