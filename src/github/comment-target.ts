/** Where to comment: an issue or pull request of the workflow's repository. */
export interface CommentTarget {
  readonly owner: string
  readonly repo: string
  readonly number: number
  /** What the number names, when the event says; an explicit issue-number could be either. */
  readonly noun: 'issue' | 'pull request' | 'issue or pull request'
}

interface TargetSource {
  readonly issueNumber: number | undefined
  readonly eventName: string
  readonly payload: Record<string, unknown>
  /** `owner/name`, from GITHUB_REPOSITORY. */
  readonly repository: string
}

type ResolvedTarget =
  { readonly kind: 'target'; readonly target: CommentTarget } | { readonly kind: 'none'; readonly reason: string }

function numberField(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null || !('number' in value)) return undefined
  return typeof value.number === 'number' && Number.isSafeInteger(value.number) && value.number > 0
    ? value.number
    : undefined
}

/**
 * The issue or pull request to comment on: `issue-number` if given, else the one the event is about
 * (`issues`, `issue_comment`, `pull_request`, `pull_request_target`, `pull_request_review`, ...).
 */
export function resolveCommentTarget(source: TargetSource): ResolvedTarget {
  const [owner, repo] = source.repository.split('/')
  if (!owner || !repo) return { kind: 'none', reason: 'GITHUB_REPOSITORY is not set, so the repository is unknown' }
  if (source.issueNumber !== undefined) {
    return { kind: 'target', target: { owner, repo, number: source.issueNumber, noun: 'issue or pull request' } }
  }
  const issue = source.payload['issue']
  const issueNumber = numberField(issue)
  if (issueNumber !== undefined) {
    // An issue_comment on a pull request carries the pull request as `issue`, marked by `pull_request`.
    const isPull = typeof issue === 'object' && issue !== null && 'pull_request' in issue
    return { kind: 'target', target: { owner, repo, number: issueNumber, noun: isPull ? 'pull request' : 'issue' } }
  }
  const pullNumber = numberField(source.payload['pull_request'])
  if (pullNumber !== undefined)
    return { kind: 'target', target: { owner, repo, number: pullNumber, noun: 'pull request' } }
  return {
    kind: 'none',
    reason: `the "${source.eventName}" event that started this run is about no issue or pull request; set issue-number to say where to comment`
  }
}
