// Everything the action does on GitHub: the event's issue or pull request, the tracking comments there, and the
// workflow run. Loaded only when `comment` or `follow-up` is true, so other runs never load Octokit.
import { context } from '@actions/github'
import type { Dispatcher } from 'undici'
import { type CommentView, renderComment } from './comment-body.ts'
import { type CommentTarget, resolveCommentTarget } from './comment-target.ts'
import { formatDuration } from './duration.ts'
import { errorMessage } from './error-message.ts'
import { createGitHubClient, type GitHubClient } from './github-client.ts'
import type { Redact } from './redact.ts'
import { readMarker, type TrackedRequest, type TrackingState, UNKNOWN_JOB, withRequests } from './tracking.ts'
import { forLog, httpUrl } from './untrusted-text.ts'

interface GitHubSideOptions {
  readonly token: string
  readonly issueNumber: number | undefined
  readonly userAgent: string
  readonly dispatcher: Dispatcher
  /** Replaces the key and the token in everything GitHub says. */
  readonly redact: Redact
  /** For Octokit's own log lines. */
  readonly debug: (message: string) => void
  /** Aborted when the workflow is cancelled. */
  readonly cancelSignal: AbortSignal
}

/** One of the action's own tracking comments. */
export interface TrackedComment {
  readonly id: number
  readonly state: TrackingState
  /** When it was last edited, as GitHub says (ISO 8601). */
  readonly updatedAt: string
}

/** The tracking comment's address, or a warning saying why there is none. */
export type CommentResult =
  { readonly kind: 'commented'; readonly url: string } | { readonly kind: 'warning'; readonly warning: string }

export interface GitHubSide {
  readonly target: CommentTarget
  /** The workflow run: its id, its attempt (1 for the first, 2 for the first re-run...) and its page. */
  readonly run: { readonly id: string; readonly attempt: number; readonly url: string }
  /**
   * The action's own tracking comments on the issue or pull request (its marker, written by the token's own
   * account), oldest update first. Throws an Error whose message says what went wrong and what to do.
   */
  listTracked(deadlineMs: number): Promise<TrackedComment[]>
  /**
   * Creates or edits the tracking comment of `update.job`, adding `update.add` to the requests it lists (a request
   * it lists already is not added twice). Everything it does ends within `deadlineMs`. Never throws.
   */
  write(update: TrackingUpdate, view: CommentView, deadlineMs: number): Promise<CommentResult>
}

export interface TrackingUpdate {
  readonly job: string
  readonly add: readonly TrackedRequest[]
  /** The job was started by this step, so no comment tracks it yet. */
  readonly started?: boolean
}

export type OpenedGitHub =
  { readonly kind: 'ready'; readonly side: GitHubSide } | { readonly kind: 'unavailable'; readonly reason: string }

/**
 * The login the token acts as. GraphQL's `viewer` answers for every kind of token (a user's, a GitHub App's
 * installation token, the workflow's GITHUB_TOKEN), where REST's `GET /user` refuses installation tokens.
 */
async function loginOf(github: GitHubClient): Promise<string> {
  const answer = await github.octokit.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }')
  const login = answer.viewer?.login
  if (typeof login !== 'string' || login === '') throw new Error('GitHub did not say who the token acts as')
  return login
}

/**
 * Whether the comment's author is this login. GraphQL names an app `name` where REST names its comments' author
 * `name[bot]`; the two forms are taken as one only for a bot account, since anyone may register the user `name`.
 */
function isAuthor(author: { login?: string; type?: string } | null | undefined, login: string): boolean {
  if (!author?.login) return false
  if (author.login === login) return true
  const bot = author.type === 'Bot'
  return bot && (author.login === `${login}[bot]` || `${author.login}[bot]` === login)
}

function status(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
    ? error.status
    : undefined
}

/** 100 comments a page: the action looks through an issue's first 10,000 comments. */
const MAX_COMMENT_PAGES = 100

export function openGitHubSide(options: GitHubSideOptions): OpenedGitHub {
  const resolved = resolveCommentTarget({
    issueNumber: options.issueNumber,
    eventName: context.eventName,
    payload: context.payload,
    repository: process.env['GITHUB_REPOSITORY'] ?? ''
  })
  if (resolved.kind === 'none') return { kind: 'unavailable', reason: resolved.reason }
  const { target } = resolved
  const issue = { owner: target.owner, repo: target.repo }
  const where = `${target.noun} #${target.number} in ${target.owner}/${target.repo}`
  const run = {
    id: String(context.runId),
    attempt: Number.isSafeInteger(context.runAttempt) && context.runAttempt > 0 ? context.runAttempt : 1,
    url: `${context.serverUrl}/${target.owner}/${target.repo}/actions/runs/${context.runId}`
  }
  const client = (deadlineMs: number, cancellable: boolean, throttled = true): GitHubClient =>
    createGitHubClient({
      token: options.token,
      baseUrl: context.apiUrl,
      userAgent: options.userAgent,
      dispatcher: options.dispatcher,
      deadlineMs,
      throttled,
      ...(cancellable ? { cancelSignal: options.cancelSignal } : {}),
      log: (message) => {
        options.debug(`GitHub: ${forLog(options.redact(message), 500)}`)
      }
    })

  let login: Promise<string> | undefined
  /** The tracking comments found or written so far, by job: an edit then needs no new search. */
  const known = new Map<string, { readonly id: number; readonly state: TrackingState }>()

  const listOwn = async (github: GitHubClient): Promise<TrackedComment[]> => {
    login ??= loginOf(github)
    const me = await login.catch((error: unknown) => {
      login = undefined
      throw error
    })
    const own: TrackedComment[] = []
    const pages = github.octokit.paginate.iterator(github.octokit.rest.issues.listComments, {
      ...issue,
      issue_number: target.number,
      per_page: 100
    })
    let read = 0
    for await (const page of pages) {
      // A Link header that never ends (or points back) cannot keep the step reading.
      if (++read > MAX_COMMENT_PAGES) {
        options.debug(`GitHub: stopped after ${MAX_COMMENT_PAGES} pages of comments.`)
        break
      }
      for (const comment of page.data) {
        // Only a comment that starts with the marker (a reply quoting ours starts with "> "), and only our own.
        const state = readMarker(comment.body)
        if (state && isAuthor(comment.user, me)) {
          own.push({ id: comment.id, state, updatedAt: comment.updated_at })
          // A start that may not have made a job gets a comment of its own each time, never an earlier one.
          if (state.job !== UNKNOWN_JOB) known.set(state.job, { id: comment.id, state })
        }
      }
    }
    return own.sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt))
  }

  const failure = (error: unknown, github: GitHubClient, doing: string, deadlineMs: number): string => {
    const rateLimit = github.rateLimitHit()
    if (rateLimit) {
      const which = rateLimit.secondary ? 'secondary rate limit' : 'rate limit'
      return `Could not ${doing} ${where}: GitHub's ${which} for this token was reached, and it asked to wait ${rateLimit.retryAfterS}s, past the deadline of ${formatDuration(deadlineMs)}. The limit resets by itself; many jobs using one token share it.`
    }
    if (github.signal.aborted && options.cancelSignal.aborted)
      return `Could not ${doing} ${where}: the run was cancelled.`
    if (github.signal.aborted) {
      return `Could not ${doing} ${where}: GitHub's API (${forLog(options.redact(context.apiUrl), 200)}) did not finish answering within the deadline of ${formatDuration(deadlineMs)}.`
    }
    const code = status(error)
    const detail = `${code === undefined ? '' : `HTTP ${code}: `}${forLog(options.redact(errorMessage(error)), 300)}`
    if (code === 403 || code === 401) {
      const permission =
        target.noun === 'issue'
          ? 'issues: write'
          : target.noun === 'pull request'
            ? 'pull-requests: write'
            : 'issues: write (or pull-requests: write for a pull request)'
      return `Could not ${doing} ${where}: the token lacks permission (${detail}). Give the workflow or job "permissions: ${permission}", or pass a github-token that has it.`
    }
    if (code === 404) return `Could not ${doing} ${where}: it was not found (${detail}). Check issue-number.`
    return `Could not ${doing} ${where} (${detail}).`
  }

  const writeComment = async (
    github: GitHubClient,
    update: TrackingUpdate,
    view: CommentView
  ): Promise<CommentResult> => {
    // A job just started has no comment yet: the first one goes out without reading the issue first.
    if (update.job !== UNKNOWN_JOB && !update.started && !known.has(update.job)) await listOwn(github)
    const existing = known.get(update.job)
    const state = withRequests(existing?.state ?? { job: update.job, requests: [] }, update.add)
    const body = renderComment(state, view, run.url)
    const response =
      existing === undefined
        ? await github.octokit.rest.issues.createComment({ ...issue, issue_number: target.number, body })
        : await github.octokit.rest.issues.updateComment({ ...issue, comment_id: existing.id, body })
    known.set(update.job, { id: response.data.id, state })
    const url = httpUrl(options.redact(response.data.html_url))
    if (!url) {
      return {
        kind: 'warning',
        warning: `Commented on ${where}, but GitHub gave no http(s) address for the comment.`
      }
    }
    return { kind: 'commented', url: url.href }
  }

  const side: GitHubSide = {
    target,
    run,
    listTracked: async (deadlineMs) => {
      const github = client(deadlineMs, true)
      try {
        return await github.bounded(listOwn(github))
      } catch (error) {
        throw new Error(failure(error, github, 'read the comments of', deadlineMs), { cause: error })
      }
    },
    write: async (update, view, deadlineMs) => {
      // A write is never cut off by a cancel (a comment GitHub made anyway would be left behind, and a cancelled
      // run's comment must still say so): its deadline bounds it. The cancelled run's edit skips the write queue.
      const cancelled = view.kind === 'ended' && view.result.kind === 'cancelled'
      const github = client(deadlineMs, false, !cancelled)
      try {
        return await github.bounded(writeComment(github, update, view))
      } catch (error) {
        return { kind: 'warning', warning: failure(error, github, 'comment on', deadlineMs) }
      }
    }
  }
  return { kind: 'ready', side }
}
