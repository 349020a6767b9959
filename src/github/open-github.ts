// Everything the action does on GitHub: the event's issue or pull request, the tracking comments there, and the
// workflow run. Loaded only when `comment` or `follow-up` is true (see load-github.ts), so other runs never load
// Octokit.
import { context } from '@actions/github'
import type { Transport } from '../transport/transport.ts'
import { type CommentTarget, resolveCommentTarget } from './comment-target.ts'
import { describeGitHubFailure, isPermissionRefusal } from './github-failure.ts'
import {
  createGitHubClient,
  type GitHubAccess,
  githubAccess,
  type GitHubClient,
  type GitHubWork
} from './octokit-client.ts'
import { type CommentResult, type CommentWrite, type TrackedComment, TrackingComments } from './tracking-comments.ts'

/** The workflow run: its id, its attempt (1 for the first, 2 for the first re-run...) and its page. */
export interface WorkflowRun {
  readonly id: string
  readonly attempt: number
  readonly url: string
}

export interface GitHubSide {
  readonly target: CommentTarget
  readonly run: WorkflowRun
  /**
   * The action's own tracking comments on the issue or pull request, oldest report first, read within
   * `deadlineMs`. Throws an Error whose message says what went wrong and what to do.
   */
  listTracked(deadlineMs: number): Promise<TrackedComment[]>
  /**
   * Posts or edits a tracking comment, within `deadlineMs`. Never throws. After GitHub has refused a write for want
   * of permission, no other write is sent in this run: `skipped` says so.
   */
  write(write: CommentWrite, deadlineMs: number): Promise<CommentResult | { readonly kind: 'skipped' }>
}

export type OpenedGitHub =
  { readonly kind: 'ready'; readonly side: GitHubSide } | { readonly kind: 'unavailable'; readonly reason: string }

export interface GitHubSideOptions {
  readonly token: string
  readonly issueNumber: number | undefined
  /** `owner/name`, from GITHUB_REPOSITORY. */
  readonly repository: string
  readonly transport: Transport
  /** For Octokit's own log lines. */
  readonly debug: (message: string) => void
  readonly warning: (message: string) => void
}

/** What the action reads of the workflow run and the event that started it. */
export type RunContext = Pick<typeof context, 'eventName' | 'payload' | 'apiUrl' | 'serverUrl' | 'runId' | 'runAttempt'>

/** `run`: @actions/github's context, read from the runner's environment and event file. */
export function openGitHubSide(options: GitHubSideOptions, run: RunContext = context): OpenedGitHub {
  const resolved = resolveCommentTarget({
    issueNumber: options.issueNumber,
    eventName: run.eventName,
    payload: run.payload,
    repository: options.repository
  })
  if (resolved.kind === 'none') return { kind: 'unavailable', reason: resolved.reason }
  const { target } = resolved
  const { transport } = options
  const workflow = workflowRun(target, run)
  const access = githubAccess(options.token, run.apiUrl, transport, options.debug)
  const comments = new TrackingComments({
    target,
    runUrl: workflow.url,
    redact: transport.redact,
    warning: options.warning
  })
  const work = { transport, access, target }
  /** Set once GitHub refuses a write for want of permission: trying again in this run cannot help. */
  let refused = false
  const side: GitHubSide = {
    target,
    run: workflow,
    listTracked: async (deadlineMs) => {
      const limits = { deadlineMs, cancellable: true, throttled: true }
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
  return { kind: 'ready', side }
}

type WorkDone<T> =
  | { readonly kind: 'done'; readonly value: T }
  | { readonly kind: 'failed'; readonly failure: string; readonly cause: unknown; readonly refused: boolean }

/** Runs one piece of GitHub work on a client of its own, bounded by its deadline; a failure becomes a message. */
async function doGitHubWork<T>(
  work: { readonly transport: Transport; readonly access: GitHubAccess; readonly target: CommentTarget },
  limits: GitHubWork,
  doing: string,
  task: (client: GitHubClient) => Promise<T>
): Promise<WorkDone<T>> {
  const { transport, access, target } = work
  const client = createGitHubClient(transport, access, limits)
  try {
    return { kind: 'done', value: await client.bounded(task(client)) }
  } catch (error) {
    const failure = describeGitHubFailure(error, client, {
      doing,
      target,
      apiUrl: access.apiUrl,
      deadlineMs: limits.deadlineMs,
      cancelled: transport.cancelSignal.aborted,
      redact: transport.redact
    })
    return { kind: 'failed', failure, cause: error, refused: isPermissionRefusal(error, client) }
  }
}

function workflowRun(target: CommentTarget, run: RunContext): WorkflowRun {
  const attempt = run.runAttempt
  return {
    id: String(run.runId),
    attempt: Number.isSafeInteger(attempt) && attempt > 0 ? attempt : 1,
    url: `${run.serverUrl}/${target.owner}/${target.repo}/actions/runs/${run.runId}`
  }
}
