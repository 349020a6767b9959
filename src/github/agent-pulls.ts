// What a sweep reads of the docs repository: its open pull requests (one listing for all of them), those opened in the
// figures' window, and, only for a pull request whose decision needs them, its mergeability and reviews (two
// requests), whether a person committed or left a review comment (two more, only when it may be stale), its checks
// (two more, only when it may be merged), and whether it was reopened (one more, only before it would be closed).
// Everything GitHub sends is read through the narrow readers of fields.ts.
import { MINTLIFY_BOT } from '../inputs/gate-settings.ts'
import type { GitHubClient } from './octokit.ts'
import { fieldsAt, fieldsOf, listOf, positiveIntegerOf, textOf } from './fields.ts'

/** An open pull request of the docs repository, as the listing gives it. */
export interface OpenPull {
  readonly number: number
  /** Untrusted: made safe where it is shown. */
  readonly title: string
  readonly author: Author
  readonly createdAt: number
  /** The last activity GitHub counts: a push, a comment, a review, a label. */
  readonly updatedAt: number
  readonly headSha: string
}

export interface Author {
  /** Untrusted: made safe where it is shown. */
  readonly login: string
  readonly bot: boolean
}

/** A pull request of the docs repository opened in the figures' window, and how it ended. */
export interface WindowPull {
  readonly number: number
  readonly createdAt: number
  readonly mergedAt: number | undefined
  readonly closedAt: number | undefined
}

/** What the decisions need beyond the listing, each part read only when a decision needs it. */
export interface PullDetails {
  /** Undefined while GitHub has not worked it out (it does so in the background after the first read). */
  readonly mergeable: boolean | undefined
  /** GitHub's `mergeable_state`: `clean`, `dirty`, `behind`, `blocked`, `unstable`, `unknown`... */
  readonly mergeState: string
  /** The head the merge is made at: a push after this read makes GitHub refuse it. */
  readonly headSha: string
  readonly reviews: Reviews
}

export interface Reviews {
  /** A person's latest review approves it. */
  readonly approved: boolean
  /** A person's latest review asks for changes. */
  readonly changesRequested: boolean
  /** A person reviewed it (approving, asking for changes, or commenting). */
  readonly byPeople: boolean
}

/** The most pages of 100 a listing reads. */
export const MOST_PULL_PAGES = 10

/** Whether this author is the Mintlify agent: the login and a bot's type both (anyone may register `mintlify`). */
export function isAgent(author: Author): boolean {
  return author.bot && author.login === MINTLIFY_BOT
}

type Where = { readonly owner: string; readonly repo: string }

/** The open pull requests, oldest first, and whether all were read (false past MOST_PULL_PAGES). */
export async function listOpen(github: GitHubClient, where: Where): Promise<{ pulls: OpenPull[]; complete: boolean }> {
  const params = { ...where, state: 'open', sort: 'created', direction: 'asc', per_page: 100 } as const
  const pulls: OpenPull[] = []
  let page = 0
  for await (const { data } of github.octokit.paginate.iterator(github.octokit.rest.pulls.list, params)) {
    pulls.push(...listOf(data).flatMap((entry) => openPullOf(entry) ?? []))
    if (++page >= MOST_PULL_PAGES) return { pulls, complete: false }
  }
  return { pulls, complete: true }
}

function openPullOf(entry: unknown): OpenPull | undefined {
  const fields = fieldsOf(entry)
  const number = positiveIntegerOf(fields['number'])
  const createdAt = Date.parse(textOf(fields['created_at']))
  if (number === undefined || !Number.isFinite(createdAt)) return undefined
  const updatedAt = Date.parse(textOf(fields['updated_at']))
  return {
    number,
    title: textOf(fields['title']),
    author: authorOf(fields['user']),
    createdAt,
    updatedAt: Number.isFinite(updatedAt) ? updatedAt : createdAt,
    headSha: textOf(fieldsAt(fields, 'head')['sha'])
  }
}

function authorOf(user: unknown): Author {
  const fields = fieldsOf(user)
  return { login: textOf(fields['login']), bot: textOf(fields['type']) === 'Bot' }
}

/** The pull requests opened since `since`, newest first as GitHub lists them by creation, with how each ended. */
export async function listOpenedSince(
  github: GitHubClient,
  where: Where,
  since: number
): Promise<{ pulls: WindowPull[]; complete: boolean }> {
  const params = { ...where, state: 'all', sort: 'created', direction: 'desc', per_page: 100 } as const
  const pulls: WindowPull[] = []
  let page = 0
  for await (const { data } of github.octokit.paginate.iterator(github.octokit.rest.pulls.list, params)) {
    const listed = listOf(data).map(fieldsOf)
    for (const fields of listed) {
      const number = positiveIntegerOf(fields['number'])
      const createdAt = Date.parse(textOf(fields['created_at']))
      if (number === undefined || !(createdAt >= since)) continue
      pulls.push({ number, createdAt, mergedAt: timeOf(fields['merged_at']), closedAt: timeOf(fields['closed_at']) })
    }
    const oldest = Date.parse(textOf(listed.at(-1)?.['created_at']))
    if (!(oldest >= since)) return { pulls, complete: true }
    if (++page >= MOST_PULL_PAGES) return { pulls, complete: false }
  }
  return { pulls, complete: true }
}

function timeOf(value: unknown): number | undefined {
  const at = Date.parse(textOf(value))
  return Number.isFinite(at) ? at : undefined
}

/** Its mergeability (one read) and reviews (one more). */
export async function readDetails(github: GitHubClient, where: Where, pull: OpenPull): Promise<PullDetails> {
  const { data } = await github.octokit.rest.pulls.get({ ...where, pull_number: pull.number })
  const fields = fieldsOf(data)
  const mergeable = fields['mergeable']
  const listed = await github.octokit.paginate(github.octokit.rest.pulls.listReviews, {
    ...where,
    pull_number: pull.number,
    per_page: 100
  })
  const headSha = textOf(fieldsAt(fields, 'head')['sha']) || pull.headSha
  return {
    mergeable: typeof mergeable === 'boolean' ? mergeable : undefined,
    mergeState: textOf(fields['mergeable_state']) || 'unknown',
    headSha,
    reviews: reviewsOf(listed, pull.author, headSha)
  }
}

/**
 * What people's reviews say: each person's latest approving or asking for changes counts. An approval counts only for
 * the commit it was given on (`headSha`): what was pushed after it, nobody approved.
 */
export function reviewsOf(listed: readonly unknown[], author: Author, headSha: string): Reviews {
  const latest = new Map<string, string>()
  let byPeople = false
  for (const review of listed) {
    const reviewer = authorOf(fieldsOf(review)['user'])
    const state = textOf(fieldsOf(review)['state'])
    if (reviewer.bot || reviewer.login === '' || reviewer.login === author.login) continue
    if (state === 'APPROVED' || state === 'CHANGES_REQUESTED' || state === 'COMMENTED') byPeople = true
    // A comment leaves a person's approval or request for changes as it was; a dismissal ends it.
    const outdated = state === 'APPROVED' && textOf(fieldsOf(review)['commit_id']) !== headSha
    if (state === 'APPROVED' || state === 'CHANGES_REQUESTED' || state === 'DISMISSED')
      latest.set(reviewer.login, outdated ? 'OUTDATED' : state)
  }
  const states = [...latest.values()]
  return { approved: states.includes('APPROVED'), changesRequested: states.includes('CHANGES_REQUESTED'), byPeople }
}

/**
 * Whether a person committed to it or left a review comment on it: two reads. A commit is a person's when its GitHub
 * account is not a bot and not the pull request's author, or, made with no GitHub account, when its git author is not
 * the first commit's (the agent's).
 */
export async function readTouched(github: GitHubClient, where: Where, pull: OpenPull): Promise<boolean> {
  const params = { ...where, pull_number: pull.number, per_page: 100 }
  const commits = await github.octokit.paginate(github.octokit.rest.pulls.listCommits, params)
  const gitAuthor = (commit: unknown): string => textOf(fieldsAt(commit, 'commit', 'author')['email'])
  const first = gitAuthor(commits[0])
  const byPerson = (commit: unknown): boolean => {
    const account = authorOf(fieldsOf(commit)['author'])
    if (account.login === '') return gitAuthor(commit) !== first
    return !account.bot && account.login !== pull.author.login
  }
  if (commits.some(byPerson)) return true
  const comments = await github.octokit.paginate(github.octokit.rest.pulls.listReviewComments, params)
  return comments.some((comment) => {
    const by = authorOf(fieldsOf(comment)['user'])
    return !by.bot && by.login !== pull.author.login
  })
}

/** Whether it was ever reopened after a close (by a person, say, after an earlier sweep closed it): one read. */
export async function readReopened(github: GitHubClient, where: Where, pull: OpenPull): Promise<boolean> {
  const params = { ...where, issue_number: pull.number, per_page: 100 }
  const events = await github.octokit.paginate(github.octokit.rest.issues.listEvents, params)
  return events.some((event) => textOf(fieldsOf(event)['event']) === 'reopened')
}

/** How its head's checks stand: the commit statuses and the check runs, two reads. */
export async function readChecks(
  github: GitHubClient,
  where: Where,
  sha: string
): Promise<'pass' | 'fail' | 'pending'> {
  const { data: combined } = await github.octokit.rest.repos.getCombinedStatusForRef({ ...where, ref: sha })
  const statuses = listOf(fieldsOf(combined)['statuses']).map((status) => textOf(fieldsOf(status)['state']))
  const runs = await github.octokit.paginate(github.octokit.rest.checks.listForRef, {
    ...where,
    ref: sha,
    per_page: 100
  })
  const finished = runs.map((run) => {
    if (textOf(fieldsOf(run)['status']) !== 'completed') return 'pending'
    const conclusion = textOf(fieldsOf(run)['conclusion'])
    return ['success', 'neutral', 'skipped'].includes(conclusion) ? 'success' : 'failure'
  })
  const all = [...statuses, ...finished]
  if (all.some((state) => state === 'failure' || state === 'error')) return 'fail'
  return all.every((state) => state === 'success') ? 'pass' : 'pending'
}

/** Why GitHub would not merge it as it stands, by its reviews and mergeability; undefined when it would. */
export function mergeBlocker(details: PullDetails): string | undefined {
  const { reviews } = details
  if (reviews.changesRequested) return 'a reviewer asked for changes'
  if (!reviews.approved) return 'no approving review'
  if (details.mergeable === undefined) return 'GitHub has not worked out yet whether it can be merged'
  if (!details.mergeable || details.mergeState === 'dirty' || details.mergeState === 'behind')
    return 'its branch is not up to date with its base branch'
  if (details.mergeState === 'blocked') return "the repository's rules block its merge"
  return undefined
}
