// What a failed piece of GitHub work says in the log: the cause, and what to do about it.
import type { Redact } from '../text/redact.ts'
import { formatDuration } from '../text/duration.ts'
import { errorMessage } from '../text/error-message.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { CommentTarget } from './comment-target.ts'
import type { GitHubClient } from './octokit-client.ts'

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

/** The HTTP status an Octokit error carries; undefined for a failure without an answer. */
export function httpStatusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
    ? error.status
    : undefined
}

const PERMISSION_BY_NOUN: Readonly<Record<CommentTarget['noun'], string>> = {
  issue: 'issues: write',
  'pull request': 'pull-requests: write',
  'issue or pull request': 'issues: write (or pull-requests: write for a pull request)'
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
  const status = httpStatusOf(error)
  const detail = `${status === undefined ? '' : `HTTP ${status}: `}${forLog(work.redact(errorMessage(error)), 300)}`
  if (status === 403 || status === 401) {
    return `${failed}: the token lacks permission (${detail}). Give the workflow or job "permissions: ${PERMISSION_BY_NOUN[target.noun]}", or pass a github-token that has it.`
  }
  if (status === 404) return `${failed}: it was not found (${detail}). Check issue-number.`
  return `${failed} (${detail}).`
}

/** Whether GitHub refused for want of permission (not a rate limit): writing again in this run cannot help. */
export function isPermissionRefusal(error: unknown, github: GitHubClient): boolean {
  const status = httpStatusOf(error)
  return (status === 401 || status === 403) && github.rateLimitHit() === undefined
}
