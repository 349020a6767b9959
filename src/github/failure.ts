// GitHub's failures, read once and worded in one place: what stopped a piece of work (a rate limit past the deadline,
// a cancel, the deadline, no answer at all, or GitHub's answer), the short form a warning takes, the long form of a
// tracking comment's failure, and the permission a refusal asks for. Loads no Octokit: a mode's warning words with it.
import { formatDuration } from '../text/duration.ts'
import type { Redact } from '../text/redact.ts'
import { errorMessage, forLog } from '../text/untrusted.ts'
import type { GitHubClient, RateLimitHit } from './octokit.ts'
import type { CommentTarget } from './event.ts'
import { httpStatusOf, responseHeader } from './fields.ts'

/**
 * What stopped a piece of GitHub work. `status` is the HTTP status the error carries, if any; `rateLimited`, whether
 * GitHub's answer was a rate limit rather than a refusal.
 */
export type GitHubFailure = { readonly status: number | undefined; readonly rateLimited: boolean } & (
  | { readonly kind: 'rate limit'; readonly hit: RateLimitHit }
  | { readonly kind: 'cancelled' | 'deadline' }
  | { readonly kind: 'no answer'; readonly words: string }
  | { readonly kind: 'answer'; readonly message: string }
)

/** The failure of a piece of work done on `client`; `cancelled`: whether the run was cancelled. */
export function failureOf(
  error: unknown,
  client: Pick<GitHubClient, 'rateLimitHit' | 'signal' | 'noAnswer'>,
  cancelled: boolean
): GitHubFailure {
  const read = { status: httpStatusOf(error), rateLimited: isRateLimitAnswer(error) }
  const hit = client.rateLimitHit()
  if (hit !== undefined) return { ...read, kind: 'rate limit', hit }
  if (client.signal.aborted) return { ...read, kind: cancelled ? 'cancelled' : 'deadline' }
  const words = client.noAnswer(error)
  if (words !== undefined) return { ...read, kind: 'no answer', words }
  return { ...read, kind: 'answer', message: errorMessage(error) }
}

/**
 * Whether GitHub's answer is a rate limit rather than a refusal: a 429, or a 403 that says so (`x-ratelimit-remaining:
 * 0`, or a secondary rate limit in its message).
 */
export function isRateLimitAnswer(error: unknown): boolean {
  const status = httpStatusOf(error)
  if (status === 429) return true
  if (status !== 403 || !(error instanceof Error)) return false
  return responseHeader(error, 'x-ratelimit-remaining') === '0' || /\brate limit/i.test(error.message)
}

/** Whether GitHub refused for want of permission (not a rate limit): trying again in this run cannot help. */
export function isPermissionRefusal(failure: GitHubFailure): boolean {
  return (failure.status === 401 || failure.status === 403) && failure.kind !== 'rate limit' && !failure.rateLimited
}

/** `GitHub's secondary rate limit for this token was reached, and it asked to wait 600s, past the deadline`. */
export function rateLimitWords(hit: RateLimitHit): string {
  const which = hit.secondary ? 'secondary rate limit' : 'rate limit'
  return `GitHub's ${which} for this token was reached, and it asked to wait ${hit.retryAfterS}s, past the deadline`
}

/** What a refusal asks of the workflow: `the workflow needs permissions: checks: write`. */
export function permissionHint(permission: string): string {
  return `the workflow needs permissions: ${permission}`
}

/** All a docs-token needs on the docs repository, named at once so that it is set up once. */
const DOCS_TOKEN_NEEDS = 'pull-requests: write and contents: read'

/**
 * What a refusal on the docs repository asks for: the permission, of the workflow's token when the docs are its own
 * repository, else of docs-token, which a run without one is told to pass, with all it needs there.
 */
export function docsAdvice(
  session: { readonly docsToken: boolean; readonly repository: string },
  where: { readonly owner: string; readonly repo: string },
  needs: string
): string {
  const repository = forLog(`${where.owner}/${where.repo}`, 100)
  if (session.docsToken) return `docs-token needs ${needs} on ${repository}`
  if (`${where.owner}/${where.repo}`.toLowerCase() === session.repository.toLowerCase()) return permissionHint(needs)
  return `github-token reaches only this repository: pass a docs-token with ${DOCS_TOKEN_NEEDS} on ${repository}`
}

/**
 * A warning's short form: `Could not close pull request #128 in acme/docs (HTTP 404): <advice>.`, or `(no answer in
 * time)`; the advice only when GitHub refused with one of `refusedOn`. GitHub's own text is left out.
 */
export function briefFailure(
  what: string,
  failure: GitHubFailure,
  hint: { readonly advice: string; readonly refusedOn: readonly number[] }
): string {
  const { status } = failure
  const why = status === undefined ? 'no answer in time' : `HTTP ${status}`
  const refused = status !== undefined && hint.refusedOn.includes(status)
  return `${what} (${why})${refused ? `: ${hint.advice}` : ''}.`
}

/** A piece of work on the issue or pull request, for the long form of its failure. */
export interface FailedWork {
  /** `comment on`, `read the comments of`. */
  readonly doing: string
  readonly target: CommentTarget
  readonly apiUrl: string
  readonly deadlineMs: number
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

/** `Could not comment on issue #12 in acme/docs: ...`, with the advice that fits the cause and GitHub's own words. */
export function describeFailure(failure: GitHubFailure, work: FailedWork): string {
  const { target } = work
  const failed = `Could not ${work.doing} ${target.noun} #${target.number} in ${target.owner}/${target.repo}`
  switch (failure.kind) {
    case 'rate limit':
      return `${failed}: ${rateLimitWords(failure.hit)} of ${formatDuration(work.deadlineMs)}. The limit resets by itself; many jobs using one token share it.`
    case 'cancelled':
      return `${failed}: the run was cancelled.`
    case 'deadline':
      return `${failed}: GitHub's API (${forLog(work.redact(work.apiUrl), 200)}) did not finish answering within the deadline of ${formatDuration(work.deadlineMs)}.`
    case 'no answer':
      return `${failed}: ${failure.words}.`
  }
  const { status, message } = failure
  const detail = `${status === undefined ? '' : `HTTP ${status}: `}${forLog(work.redact(message), 300)}`
  if (failure.rateLimited) {
    return `${failed}: GitHub's rate limit for this token was reached (${detail}). The limit resets by itself; many jobs using one token share it.`
  }
  if (status === 403 && /\blocked\b/i.test(message)) {
    return `${failed}: ${target.noun} #${target.number} is locked (${detail}). Unlock it, or have the action write elsewhere (issue-number).`
  }
  if (status === 403 || status === 401) {
    return `${failed}: the token lacks permission (${detail}). Give the workflow or job "permissions: ${PERMISSION_BY_NOUN[target.noun]}", or pass a github-token that has it.`
  }
  if (status === 404) return `${failed}: it was not found (${detail}). ${NOT_FOUND_ADVICE[target.from]}`
  return `${failed} (${detail}).`
}
