// Which docs pull requests the action's own jobs opened, and for what: read from its records, the tracking comments
// in the workflow's repository. Only a comment with the marker written by the token's own identity is a record (a
// user named like the app is not the app: the author's type is checked), so a forged record moves nothing.
import { checkPrLink } from '../admin-api/agent-job.ts'
import type { Redact } from '../text/redact.ts'
import { type GitHubClient, isAuthor } from './octokit.ts'
import { fieldsAt, fieldsOf, listOf, positiveIntegerOf, textOf } from './fields.ts'
import {
  promptHash,
  readMarker,
  type SourceEnd,
  type TrackingState,
  tracksProject,
  UNKNOWN_JOB
} from './tracking-record.ts'

/** Where a docs pull request came from: a code pull request (`pair`), a batch, one run, or a person's request. */
export const ORIGINS = ['pair', 'batch', 'single', 'request'] as const
export type Origin = (typeof ORIGINS)[number]

/** The follow-up a sweep sends the job of a conflicted docs pull request; its record tells that it was sent. */
export const UPDATE_PROMPT =
  'Your docs pull request can no longer be merged: its branch conflicts with its base branch, or is behind it. ' +
  'Bring the branch up to date with its base, resolving any conflicts, and change nothing else.'

/** One docs pull request a job of the action opened, as its record tells. */
export interface AgentRecord {
  /** The docs pull request's number in the docs repository. */
  readonly number: number
  readonly url: string
  readonly origin: Origin
  /** The agent job that opened it. */
  readonly job: string
  /** The issue or pull request of the workflow's repository the record is on: with `pair`, the code pull request. */
  readonly issue: number
  /** When its job was started, by the record (milliseconds since the epoch): which of two records is newer. */
  readonly startedAt: number
  readonly commentId: number
  /** With `pair`: the earlier docs pull request this one replaces, by number in the docs repository. */
  readonly supersedes?: number
  /** With `pair`: how the code pull request ended, once the action told the docs pull request. */
  readonly source?: SourceEnd
  /** With `batch`: the pull requests it covers. */
  readonly covers?: readonly number[]
  /** A sweep asked its job to bring the branch up to date already: it asks once. */
  readonly askedToUpdate: boolean
  /** The whole record, for a follow-up to be recorded on it. */
  readonly state: TrackingState
}

/** Where the records are read and what counts as one. */
export interface RecordsOf {
  /** Who `github-token` acts as: the only author of the action's records. */
  readonly me: string
  readonly projectId: string
  /** The docs repository, `owner/name`. */
  readonly docs: string
  /** Hosts whose pull request links the action reads (github.com, the runner's own). */
  readonly hosts: ReadonlySet<string>
  readonly redact: Redact
}

/** The most pages of 100 comments a sweep reads for records. */
export const MOST_RECORD_PAGES = 20

/**
 * The records in the workflow repository's comments updated since `since` (the action writes a record after its
 * pull request is opened, so none older can name an open one): the newest per docs pull request, and whether every
 * comment was read (false past MOST_RECORD_PAGES). The comments are read newest first, so that in a busy repository
 * what is left unread is the oldest, not the records of the latest jobs.
 */
export async function readRecords(
  github: GitHubClient,
  where: { readonly owner: string; readonly repo: string },
  since: number,
  of: RecordsOf
): Promise<{ readonly records: AgentRecord[]; readonly complete: boolean }> {
  const list = github.octokit.rest.issues.listCommentsForRepo
  const params = {
    ...where,
    since: new Date(since).toISOString(),
    sort: 'updated',
    direction: 'desc',
    per_page: 100
  } as const
  const comments: unknown[] = []
  let page = 0
  for await (const { data } of github.octokit.paginate.iterator(list, params)) {
    comments.push(...listOf(data))
    if (++page >= MOST_RECORD_PAGES) return { records: recordsIn(comments, of), complete: false }
  }
  return { records: recordsIn(comments, of), complete: true }
}

/** The action's own records among these comments that name a docs pull request in the docs repository. */
export function recordsIn(comments: readonly unknown[], of: RecordsOf): AgentRecord[] {
  const newest = new Map<number, AgentRecord>()
  for (const comment of comments) {
    const record = recordOf(comment, of)
    const known = record && newest.get(record.number)
    if (record && (!known || newer(record, known))) newest.set(record.number, record)
  }
  return [...newest.values()].sort((a, b) => a.number - b.number)
}

/** How far GitHub's clock and the runner's may differ when a pull request's opening is set against its job's start. */
const CLOCK_SKEW_MS = 10 * 60_000

/** When the record's job was started (milliseconds since the epoch; 0 when it does not say). */
export function jobStart(state: TrackingState): number {
  return state.requests.find((request) => request.kind === 'start')?.at ?? state.requests[0]?.at ?? 0
}

/** Whether a pull request opened at `createdAt` was opened before a job started at `startedAt`: it is not the job's. */
export function openedBefore(createdAt: number, startedAt: number): boolean {
  return createdAt + CLOCK_SKEW_MS < startedAt
}

/** Whether `a` was started after `b`, by the records (the comment's id breaks a tie). */
export function newer(a: AgentRecord, b: AgentRecord): boolean {
  return a.startedAt > b.startedAt || (a.startedAt === b.startedAt && a.commentId > b.commentId)
}

/** Whether the comment's author is the token's identity, and of its kind (see isAuthor): a user named like an app is not the app. */
export function isOwn(comment: unknown, me: string): boolean {
  const user = fieldsAt(comment, 'user')
  return isAuthor({ login: textOf(user['login']), type: textOf(user['type']) }, me)
}

function recordOf(comment: unknown, of: RecordsOf): AgentRecord | undefined {
  const fields = fieldsOf(comment)
  if (!isOwn(comment, of.me)) return undefined
  const state = readMarker(textOf(fields['body']))
  if (!state || state.job === UNKNOWN_JOB || !tracksProject(state, of.projectId)) return undefined
  const docs = docsNumber(state.pr, of)
  const issue = Number(/\/issues\/(\d+)$/.exec(textOf(fields['issue_url']))?.[1])
  const commentId = positiveIntegerOf(fields['id'])
  if (docs === undefined || !Number.isSafeInteger(issue) || commentId === undefined) return undefined
  const supersedes = docsNumber(state.supersedes, of)
  return {
    number: docs.number,
    url: docs.url,
    origin: originOf(state),
    job: state.job,
    issue,
    startedAt: jobStart(state),
    commentId,
    ...(supersedes ? { supersedes: supersedes.number } : {}),
    ...(state.source ? { source: state.source } : {}),
    ...(state.batch ? { covers: state.batch.pulls } : {}),
    askedToUpdate: state.requests.some((request) => request.prompt === UPDATE_HASH),
    state
  }
}

const UPDATE_HASH = promptHash(UPDATE_PROMPT)

/** What a record tells of where its job came from. */
export function originOf(state: TrackingState): Origin {
  if (state.batch) return 'batch'
  const { requests } = state
  if (state.source || state.supersedes || requests.some((request) => request.head !== undefined)) return 'pair'
  return requests.some((request) => request.asked) ? 'request' : 'single'
}

/** The number of a pull request link in the docs repository; undefined for any other link. */
function docsNumber(
  link: string | undefined,
  of: RecordsOf
): { readonly number: number; readonly url: string } | undefined {
  const checked = checkPrLink(link, of.hosts, of.redact)
  if (checked.kind !== 'link' || !checked.pullRequest) return undefined
  if (checked.pullRequest.repository.toLowerCase() !== of.docs.toLowerCase()) return undefined
  return { number: checked.pullRequest.number, url: checked.url.href }
}

/** How a code pull request of the workflow's repository stands now. */
export type CodeState = 'open' | 'merged' | 'closed' | 'unknown'

/** The code pull request's state, read once. */
export async function readCodeState(
  github: GitHubClient,
  where: { readonly owner: string; readonly repo: string },
  number: number
): Promise<CodeState> {
  const { data } = await github.octokit.rest.pulls.get({ ...where, pull_number: number })
  if (fieldsOf(data)['merged'] === true) return 'merged'
  return textOf(fieldsOf(data)['state']) === 'closed' ? 'closed' : 'open'
}
