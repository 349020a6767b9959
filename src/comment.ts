// Loaded only when `comment: true`, so runs without a comment never load Octokit.
import { context } from '@actions/github'
import type { Dispatcher } from 'undici'
import { commentMarker, type CommentContext, renderComment } from './comment-body.ts'
import { type CommentTarget, resolveCommentTarget } from './comment-target.ts'
import { formatDuration } from './duration.ts'
import { errorMessage } from './error-message.ts'
import { createGitHubClient, type GitHubClient } from './github-client.ts'
import type { WaitResult } from './poller.ts'
import type { Redact } from './redact.ts'
import { forLog, httpUrl } from './untrusted-text.ts'

interface CommentRequest {
  readonly token: string
  readonly issueNumber: number | undefined
  readonly userAgent: string
  readonly dispatcher: Dispatcher
  /** Replaces the key and the token in everything GitHub says. */
  readonly redact: Redact
  /** For Octokit's own log lines. */
  readonly debug: (message: string) => void
  readonly jobId: string
  readonly timeoutMs: number
  readonly message: string
}

/** Either the comment's URL, or a warning saying why there is none. Never throws. */
type CommentResult =
  { readonly kind: 'commented'; readonly url: string } | { readonly kind: 'warning'; readonly warning: string }

/** Everything the comment does ends within this; it never holds the runner longer. */
const COMMENT_DEADLINE_MS = 60_000

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

/** Whether GitHub's `user.login` is this login: an app's comments are by `name[bot]`, whichever way GraphQL says it. */
function isAuthor(author: string | undefined, login: string): boolean {
  return author === login || author === `${login}[bot]` || `${author ?? ''}[bot]` === login
}

/** The id of our comment for this job: it starts with the job's marker and was written by the token's own login. */
async function findOwnComment(
  github: GitHubClient,
  target: CommentTarget,
  marker: string,
  login: string
): Promise<number | undefined> {
  let found: number | undefined
  const pages = github.octokit.paginate.iterator(github.octokit.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.number,
    per_page: 100
  })
  for await (const page of pages) {
    for (const comment of page.data) {
      // Only a comment that starts with the marker (a reply quoting ours starts with "> "), and only our own.
      if (comment.body?.startsWith(marker) && isAuthor(comment.user?.login, login)) found = comment.id
    }
  }
  return found
}

function status(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
    ? error.status
    : undefined
}

function failureWarning(error: unknown, target: CommentTarget, github: GitHubClient, redact: Redact): string {
  const where = `${target.noun} #${target.number} in ${target.owner}/${target.repo}`
  const rateLimit = github.rateLimitHit()
  if (rateLimit) {
    const which = rateLimit.secondary ? 'secondary rate limit' : 'rate limit'
    return `Could not comment on ${where}: GitHub's ${which} for this token was reached, and it asked to wait ${rateLimit.retryAfterS}s, past the comment's deadline of ${formatDuration(COMMENT_DEADLINE_MS)}. The limit resets by itself; many jobs commenting at once share it.`
  }
  if (github.signal.aborted) {
    return `Could not comment on ${where}: GitHub's API (${forLog(redact(context.apiUrl), 200)}) did not finish answering within the comment's deadline of ${formatDuration(COMMENT_DEADLINE_MS)}.`
  }
  const code = status(error)
  const detail = `${code === undefined ? '' : `HTTP ${code}: `}${forLog(redact(errorMessage(error)), 300)}`
  if (code === 403 || code === 401) {
    const permission =
      target.noun === 'issue'
        ? 'issues: write'
        : target.noun === 'pull request'
          ? 'pull-requests: write'
          : 'issues: write (or pull-requests: write for a pull request)'
    return `Could not comment on ${where}: the token lacks permission (${detail}). Give the workflow or job "permissions: ${permission}", or pass a github-token that has it.`
  }
  if (code === 404) return `Could not comment on ${where}: it was not found (${detail}). Check issue-number.`
  return `Could not comment on ${where} (${detail}).`
}

/** Creates or updates this job's comment on the triggering issue or pull request. Never throws. */
export async function commentOutcome(result: WaitResult, request: CommentRequest): Promise<CommentResult> {
  const resolved = resolveCommentTarget({
    issueNumber: request.issueNumber,
    eventName: context.eventName,
    payload: context.payload,
    repository: process.env['GITHUB_REPOSITORY'] ?? ''
  })
  if (resolved.kind === 'none') return { kind: 'warning', warning: `No comment was made: ${resolved.reason}.` }
  const { target } = resolved

  const runUrl = `${context.serverUrl}/${target.owner}/${target.repo}/actions/runs/${context.runId}`
  const commentContext: CommentContext = {
    jobId: request.jobId,
    timeoutMs: request.timeoutMs,
    runUrl,
    message: request.message
  }
  const body = renderComment(result, commentContext)
  const github = createGitHubClient({
    token: request.token,
    baseUrl: context.apiUrl,
    userAgent: request.userAgent,
    dispatcher: request.dispatcher,
    deadlineMs: COMMENT_DEADLINE_MS,
    log: (message) => {
      request.debug(`GitHub: ${forLog(request.redact(message), 500)}`)
    }
  })
  try {
    const login = await loginOf(github)
    const existing = await findOwnComment(github, target, commentMarker(request.jobId), login)
    const issue = { owner: target.owner, repo: target.repo }
    const response =
      existing === undefined
        ? await github.octokit.rest.issues.createComment({ ...issue, issue_number: target.number, body })
        : await github.octokit.rest.issues.updateComment({ ...issue, comment_id: existing, body })
    const url = httpUrl(response.data.html_url)
    if (!url) {
      return {
        kind: 'warning',
        warning: `Commented on ${target.noun} #${target.number}, but GitHub gave no http(s) address for it.`
      }
    }
    return { kind: 'commented', url: url.href }
  } catch (error) {
    return { kind: 'warning', warning: failureWarning(error, target, github, request.redact) }
  }
}
