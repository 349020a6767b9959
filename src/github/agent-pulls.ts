// What a sweep reads of the docs repository: its open pull requests (one listing for all of them), those opened in the
// figures' window, and, only for a pull request whose decision needs them, its mergeability and reviews (two
// requests), whether a person committed or left a review comment (two more, only when it may be stale), its checks
// (two more, only when it may be merged), and whether it was reopened (one more, only before it would be closed).
// Everything GitHub sends is read through the narrow readers of fields.ts.
import { MINTLIFY_BOT } from '../inputs/gate-settings.ts'
import { type GitHubClient, isAuthor } from './octokit.ts'
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
  /** Who opened it: the action merges only what a bot opened (the agent, or an app it works through). */
  readonly author: Author
  /** When it was opened (milliseconds since the epoch): never before the job that names it was started. */
  readonly createdAt: number
  readonly draft: boolean
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
    // A pull request listed twice (pages that shift while they are read) is judged, and acted on, once.
    const known = new Set(pulls.map((pull) => pull.number))
    pulls.push(
      ...listOf(data)
        .flatMap((entry) => openPullOf(entry) ?? [])
        .filter((pull) => !known.has(pull.number))
    )
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
  const author = authorOf(fields['user'])
  const createdAt = Date.parse(textOf(fields['created_at']))
  return {
    mergeable: typeof mergeable === 'boolean' ? mergeable : undefined,
    mergeState: textOf(fields['mergeable_state']) || 'unknown',
    headSha,
    reviews: reviewsOf(listed, author.login === '' ? pull.author : author, headSha),
    author: author.login === '' ? pull.author : author,
    createdAt: Number.isFinite(createdAt) ? createdAt : pull.createdAt,
    draft: fields['draft'] === true
  }
}

/** The reviewers whose word counts: people with write access or more (anyone may review a public repository). */
const REVIEWERS = new Set(['OWNER', 'MEMBER', 'COLLABORATOR'])

/**
 * What people's reviews say: each person's latest approving or asking for changes counts, if they are the repository's
 * owner, members or collaborators (GitHub's `author_association`). An approval counts only for the commit it was given
 * on (`headSha`): what was pushed after it, nobody approved.
 */
export function reviewsOf(listed: readonly unknown[], author: Author, headSha: string): Reviews {
  const latest = new Map<string, string>()
  let byPeople = false
  for (const review of listed) {
    const reviewer = authorOf(fieldsOf(review)['user'])
    const state = textOf(fieldsOf(review)['state'])
    if (reviewer.bot || reviewer.login === '' || reviewer.login === author.login) continue
    if (state === 'APPROVED' || state === 'CHANGES_REQUESTED' || state === 'COMMENTED') byPeople = true
    if (!REVIEWERS.has(textOf(fieldsOf(review)['author_association']))) continue
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

/**
 * Whether anyone but the action (`me`, who the token acts as: a pair reopens a docs pull request with its code) ever
 * reopened it after a close: a person, say, after an earlier sweep closed it. One read.
 */
export async function readReopened(github: GitHubClient, where: Where, pull: OpenPull, me: string): Promise<boolean> {
  const params = { ...where, issue_number: pull.number, per_page: 100 }
  const events = await github.octokit.paginate(github.octokit.rest.issues.listEvents, params)
  return events.some((event) => textOf(fieldsOf(event)['event']) === 'reopened' && !isAuthor(actorOf(event), me))
}

function actorOf(event: unknown): { login: string; type: string } {
  const actor = fieldsAt(event, 'actor')
  return { login: textOf(actor['login']), type: textOf(actor['type']) }
}

/** How its head's checks stand: the commit statuses and the check runs, two reads. */
export async function readChecks(
  github: GitHubClient,
  where: Where,
  sha: string
): Promise<'pass' | 'fail' | 'pending'> {
  const { data: combined } = await github.octokit.rest.repos.getCombinedStatusForRef({ ...where, ref: sha })
  // The combined state covers every status, also those past the first page of the list.
  const statuses = [
    textOf(fieldsOf(combined)['state']) === 'pending' ? 'success' : textOf(fieldsOf(combined)['state']),
    ...listOf(fieldsOf(combined)['statuses']).map((status) => textOf(fieldsOf(status)['state']))
  ].filter((state) => state !== '')
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
  if (!details.author.bot) return "a person's account opened it: a person merges it"
  if (details.draft) return 'it is a draft'
  if (reviews.changesRequested) return 'a reviewer asked for changes'
  if (!reviews.approved) return 'no approving review'
  if (details.mergeable === undefined) return 'GitHub has not worked out yet whether it can be merged'
  if (!details.mergeable || details.mergeState === 'dirty' || details.mergeState === 'behind')
    return 'its branch is not up to date with its base branch'
  if (details.mergeState === 'blocked') return "the repository's rules block its merge"
  return undefined
}
