// A pull request's life in the simulated GitHub, for a sweep of a docs repository: when it was opened, updated, closed
// or merged, whether it can be merged, its reviews, commits, review comments, checks and events (closed, reopened); the
// listings GitHub gives of them, and the merge. Times are the test's own (ISO 8601), so that a benchmark can play months
// on a simulated clock.

/** A review, as the reviews listing gives it. */
export interface SimulatedReview {
  readonly user: string
  readonly state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED'
  readonly submittedAt?: string
  /** The commit it was given on: the pull request's head by default. */
  readonly commitId?: string
  /** The reviewer's `author_association`: `MEMBER` by default; `NONE` for a stranger. */
  readonly association?: string
}

/** A commit on the pull request's branch: `author` is its GitHub account (none for an email GitHub does not know). */
export interface SimulatedPullCommit {
  readonly sha: string
  readonly author?: string
  readonly email: string
  readonly date?: string
}

/** The fields of a pull request's life; each is optional, and GitHub's defaults stand in for what a test leaves out. */
export interface PullLife {
  createdAt?: string
  updatedAt?: string
  closedAt?: string
  mergedAt?: string
  /** `null` while GitHub works it out; true by default. */
  mergeable?: boolean | null
  /** GitHub's `mergeable_state`: `clean` by default, `dirty` when not mergeable. */
  mergeableState?: string
  reviews?: SimulatedReview[]
  commits?: SimulatedPullCommit[]
  reviewComments?: { readonly user: string; readonly createdAt?: string }[]
  /** The head's commit statuses (`success`, `failure`, `pending`) and check runs (`completed/success`, `in_progress`). */
  checks?: { readonly statuses?: readonly string[]; readonly runs?: readonly string[] }
  readonly draft?: boolean
  /** Its issue events, oldest first: each close and reopen (an edit of its state adds one). */
  events?: { readonly event: 'closed' | 'reopened'; readonly actor: string; readonly createdAt?: string }[]
}

interface LivePull extends PullLife {
  readonly number: number
  state: 'open' | 'closed'
  merged?: boolean
  readonly headSha?: string
  readonly user?: string
}

const type = (login: string): string => (login.endsWith('[bot]') ? 'Bot' : 'User')

/** The fields of a pull request's life in the pull request's own view (`GET /pulls/{n}`). */
export function lifeView(pull: LivePull) {
  const mergeable = pull.mergeable === undefined ? true : pull.mergeable
  return {
    ...listedLife(pull),
    mergeable,
    mergeable_state: pull.mergeableState ?? (mergeable === null ? 'unknown' : mergeable ? 'clean' : 'dirty')
  }
}

/** The fields of a pull request's life in a listing (which, as on GitHub, says nothing of mergeability). */
export function listedLife(pull: LivePull) {
  return {
    created_at: pull.createdAt ?? '2026-11-01T09:00:00Z',
    updated_at: pull.updatedAt ?? pull.createdAt ?? '2026-11-01T09:00:00Z',
    closed_at: pull.closedAt ?? null,
    merged_at: pull.mergedAt ?? null,
    draft: pull.draft ?? false
  }
}

/** The pull requests a listing gives (`state`, `sort: created`, `direction`), in its order. */
export function listPulls<T extends LivePull>(pulls: readonly T[], url: URL): T[] {
  const state = url.searchParams.get('state') ?? 'open'
  const sign = url.searchParams.get('direction') === 'asc' ? 1 : -1
  const created = (pull: T): number => Date.parse(listedLife(pull).created_at)
  return pulls
    .filter((pull) => state === 'all' || pull.state === state)
    .sort((a, b) => sign * (created(a) - created(b) || a.number - b.number))
}

/**
 * The lists of one pull request (reviews, commits, review comments, issue events) or of a commit (statuses, check
 * runs), before paging; undefined for any other read. `wrap` puts a page in the object GitHub answers with.
 */
export function pullListing(
  pulls: readonly LivePull[],
  rest: string
): { readonly items: readonly unknown[]; readonly wrap?: (page: readonly unknown[]) => unknown } | undefined {
  const list = /^\/(?:pulls\/(\d+)\/(reviews|commits|comments)|issues\/(\d+)\/(events))$/.exec(rest)
  const pull = list ? pulls.find((candidate) => candidate.number === Number(list[1] ?? list[3])) : undefined
  if (list && pull) return { items: listOf(pull, list[2] ?? list[4] ?? '') }
  const ofCommit = /^\/commits\/([^/]+)\/(status|check-runs)$/.exec(rest)
  const sha = decodeURIComponent(ofCommit?.[1] ?? '')
  const head = pulls.find((candidate) => (candidate.headSha ?? 'f'.repeat(40)) === sha)
  if (!ofCommit) return undefined
  const checks = head?.checks ?? {}
  if (ofCommit[2] === 'status') {
    const statuses = (checks.statuses ?? []).map((state, index) => ({ state, context: `ci/${index}` }))
    const state = statuses.some((status) => status.state !== 'success')
      ? statuses.some((status) => status.state === 'failure')
        ? 'failure'
        : 'pending'
      : statuses.length > 0
        ? 'success'
        : 'pending'
    return { items: [], wrap: () => ({ state, statuses, total_count: statuses.length, sha }) }
  }
  const runs = (checks.runs ?? []).map((run, index) => {
    const [status = 'completed', conclusion = null] = run.split('/')
    return { id: index + 1, name: `check ${index + 1}`, status, conclusion, head_sha: sha }
  })
  return { items: runs, wrap: (page) => ({ total_count: runs.length, check_runs: page }) }
}

function listOf(pull: LivePull, what: string): unknown[] {
  const at = (time: string | undefined): string => time ?? listedLife(pull).created_at
  if (what === 'reviews') {
    return (pull.reviews ?? []).map((review, index) => ({
      id: index + 1,
      user: { login: review.user, type: type(review.user) },
      state: review.state,
      commit_id: review.commitId ?? pull.headSha ?? 'f'.repeat(40),
      author_association: review.association ?? 'MEMBER',
      submitted_at: at(review.submittedAt)
    }))
  }
  if (what === 'events') {
    return (pull.events ?? []).map((event, index) => ({
      id: index + 1,
      event: event.event,
      actor: { login: event.actor, type: type(event.actor) },
      created_at: at(event.createdAt)
    }))
  }
  if (what === 'commits') {
    return (pull.commits ?? []).map((commit) => ({
      sha: commit.sha,
      commit: { author: { name: commit.author ?? commit.email, email: commit.email, date: at(commit.date) } },
      author: commit.author ? { login: commit.author, type: type(commit.author) } : null
    }))
  }
  return (pull.reviewComments ?? []).map((comment, index) => ({
    id: index + 1,
    user: { login: comment.user, type: type(comment.user) },
    body: 'A review comment.',
    created_at: at(comment.createdAt)
  }))
}

/** A pull request's state changed by an edit: when it was closed, and that it was updated. */
export function edited(pull: LivePull, state: unknown, now: string, actor = 'github-actions[bot]'): void {
  if (state === 'closed' && pull.state === 'open') pull.closedAt = now
  if (state === 'open' && pull.state === 'closed') delete pull.closedAt
  if (state !== pull.state && (state === 'closed' || state === 'open')) {
    pull.events = [...(pull.events ?? []), { event: state === 'open' ? 'reopened' : 'closed', actor, createdAt: now }]
  }
  pull.updatedAt = now
}

/**
 * `PUT /pulls/{n}/merge`, as GitHub answers it: 405 for one that cannot be merged, 409 when `sha` is not its head any
 * more; else merged and closed.
 */
export function merge(
  pull: LivePull,
  body: Record<string, unknown>,
  now: string
): { readonly status: number; readonly body: unknown } {
  const head = pull.headSha ?? 'f'.repeat(40)
  if (pull.state !== 'open' || pull.mergeable === false || pull.mergeable === null) {
    return { status: 405, body: { message: 'Pull Request is not mergeable' } }
  }
  if (typeof body['sha'] === 'string' && body['sha'] !== head) {
    return { status: 409, body: { message: 'Head branch was modified. Review and try the merge again.' } }
  }
  Object.assign(pull, { state: 'closed', merged: true, mergedAt: now, closedAt: now, updatedAt: now })
  return { status: 200, body: { sha: head, merged: true, message: 'Pull Request successfully merged' } }
}
