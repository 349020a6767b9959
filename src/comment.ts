// Loaded only when `comment: true`, so runs without a comment never load Octokit.
import { context } from '@actions/github'
import type { Dispatcher } from 'undici'
import { commentMarker, type CommentContext, renderComment } from './comment-body.ts'
import { type CommentTarget, resolveCommentTarget } from './comment-target.ts'
import { errorMessage } from './error-message.ts'
import { createGitHubClient, type GitHubClient } from './github-client.ts'
import type { WaitResult } from './poller.ts'

interface CommentRequest {
  readonly token: string
  readonly issueNumber: number | undefined
  readonly userAgent: string
  readonly dispatcher: Dispatcher
  readonly jobId: string
  readonly timeoutMs: number
  readonly message: string
}

/** Either the comment's URL, or a warning saying why there is none. Never throws. */
type CommentResult =
  { readonly kind: 'commented'; readonly url: string } | { readonly kind: 'warning'; readonly warning: string }

async function findMarkedComment(
  octokit: GitHubClient,
  target: CommentTarget,
  marker: string
): Promise<number | undefined> {
  let found: number | undefined
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.number,
    per_page: 100
  })
  for await (const page of pages) {
    // Only a comment that starts with the marker: a reply quoting ours starts with "> ".
    for (const comment of page.data) if (comment.body?.startsWith(marker)) found = comment.id
  }
  return found
}

function status(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
    ? error.status
    : undefined
}

function failureWarning(error: unknown, target: CommentTarget): string {
  const where = `${target.noun} #${target.number} in ${target.owner}/${target.repo}`
  const code = status(error)
  const detail = `${code === undefined ? '' : `HTTP ${code}: `}${errorMessage(error)}`
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

/** Creates or updates this job's comment on the triggering issue or pull request. */
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
  const octokit = createGitHubClient({
    token: request.token,
    baseUrl: context.apiUrl,
    userAgent: request.userAgent,
    dispatcher: request.dispatcher
  })
  try {
    const existing = await findMarkedComment(octokit, target, commentMarker(request.jobId))
    const issue = { owner: target.owner, repo: target.repo }
    const response =
      existing === undefined
        ? await octokit.rest.issues.createComment({ ...issue, issue_number: target.number, body })
        : await octokit.rest.issues.updateComment({ ...issue, comment_id: existing, body })
    return { kind: 'commented', url: response.data.html_url }
  } catch (error) {
    return { kind: 'warning', warning: failureWarning(error, target) }
  }
}
