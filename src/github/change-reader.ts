// What GitHub says about a change, for the prompt's "What changed" section: a pull request's files (with their
// diffs), or a push's compare (its commits and files), narrowed where they are read. A file without a usable name is
// left out and counted; any other field of the wrong type is taken as missing. A read that fails leaves its part
// out, in our own words.
import { formatDuration } from '../text/duration.ts'
import { redactedDeep } from '../text/redact.ts'
import type {
  BranchCommit,
  ChangedFile,
  ChangeFetch,
  Commit,
  EventChange,
  FetchedChanges,
  FileStatus,
  MergedPull,
  PullRequestFacts
} from './change.ts'
import type { GitHubClient } from './octokit.ts'
import { factsFromEvent } from './event.ts'
import { failureOf, type GitHubFailure, rateLimitWords } from './failure.ts'
import type { GitHubSession, RunInfo } from './session.ts'
import { countOf, fieldsAt, fieldsOf, firstTextOf, httpUrlOf, listOf, positiveIntegerOf, textOf } from './fields.ts'

/**
 * The change the event that started the run is about, and, when the settings need them, what GitHub says about it (a
 * pull request's files, a push's compare), read within one deadline. Never throws: a read that fails leaves its part out, with a warning in our own
 * words. What the event and GitHub say is redacted here, before anything is built from it, since what is built
 * shortens what it quotes: a secret cut in two would no longer be recognised.
 */
export async function readEventChange(session: GitHubSession): Promise<EventChange> {
  const { log, redact, settings, run: event } = session
  const use: ChangeUse = settings.context === 'auto' ? 'context' : 'gates'
  const payload = redactedDeep(event.payload, redact) as RunInfo['payload']
  const { facts, fetch } = factsFromEvent(event.eventName, payload, session.repository)
  if (fetch.kind === 'none' || !settings.githubUse.readFiles) return { facts, fetched: {}, calls: 0 }
  const github = session.client({ cancellable: true })
  let read: ReadChanges
  try {
    read = await github.bounded(readChanges(github, fetch, use))
  } catch {
    const unreadable = 'what changed could not be read from GitHub in time'
    const { who, consequence } = USES[use]
    read = {
      fetched: { unreadable: [unreadable] },
      warnings: [`${who}: ${unreadable} (${formatDuration(session.deadlineMs)}); ${consequence}.`]
    }
  }
  for (const warning of read.warnings) log.warning(warning)
  const fetched = redactedDeep(read.fetched, redact) as FetchedChanges
  return { facts, fetched, calls: github.callCount() }
}

/** As many files as GitHub's compare lists at once; a pull request's files are read up to the same number. */
const MOST_FILES = 300
/** The latest commits the section lists. */
const LATEST_COMMITS = 50
const PER_PAGE = 100

/** Who reads the change: `context: auto` (and the gates with it), or the gates alone. */
export type ChangeUse = 'context' | 'gates'

const USES: Readonly<Record<ChangeUse, { readonly who: string; readonly consequence: string }>> = {
  context: { who: 'context: auto', consequence: 'the section leaves them out' },
  gates: { who: 'The gates', consequence: 'they let the change through' }
}

export interface ReadChanges {
  readonly fetched: FetchedChanges
  /** What went wrong, for the log's warnings: our own words and an HTTP status, never GitHub's text. */
  readonly warnings: readonly string[]
}

/**
 * `use` says, in the log, who goes without what could not be read: `context: auto: … the section leaves them out`,
 * or the gates, which then let the change through.
 */
export async function readChanges(
  github: GitHubClient,
  fetch: ChangeFetch,
  use: ChangeUse = 'context'
): Promise<ReadChanges> {
  if (fetch.kind === 'none') return { fetched: {}, warnings: [] }
  const what = fetch.kind === 'compare' ? "the push's commits and changed files" : "the pull request's changed files"
  try {
    return {
      fetched: fetch.kind === 'compare' ? await readCompare(github, fetch) : await readPullFiles(github, fetch),
      warnings: []
    }
  } catch (error) {
    if (github.signal.aborted) throw error
    const unreadable = `${what} could not be read from GitHub`
    const needs = fetch.kind === 'compare' ? 'contents: read' : 'pull-requests: read'
    return {
      fetched: { unreadable: [unreadable] },
      warnings: [
        `${USES[use].who}: ${unreadable} ${whyUnread(failureOf(error, github, false), needs)}; ${USES[use].consequence}.`
      ]
    }
  }
}

/**
 * Why a read failed, in parentheses: our own words and an HTTP status, never GitHub's text. A rate limit is not a
 * missing permission, and a failure without an answer is the network's.
 */
function whyUnread(failure: GitHubFailure, needs: string): string {
  const { status } = failure
  if (failure.kind === 'rate limit') return `(${rateLimitWords(failure.hit)}; it resets by itself)`
  if (failure.rateLimited) return `(HTTP ${status ?? ''}: GitHub's rate limit for this token; it resets by itself)`
  if (failure.kind === 'no answer') return `(${failure.words})`
  const why = status === undefined ? '(no answer)' : `(HTTP ${status})`
  return status === 403 || status === 404 ? `${why} (the token needs ${needs})` : why
}

async function readPullFiles(
  github: GitHubClient,
  fetch: ChangeFetch & { kind: 'pull-request-files' }
): Promise<FetchedChanges> {
  const read = await listPullFiles(github, fetch, MOST_FILES)
  return { ...changedFilesOf(read.entries), ...(read.complete ? {} : { filesCut: true }) }
}

/** GitHub lists at most this many files of a pull request, however many it changes. */
export const GITHUB_MOST_FILES = 3000

/**
 * A pull request's files as GitHub lists them, up to `most`, and whether that is all of them: a listing cut at `most`
 * (or at GitHub's own 3,000) may leave out the one file that matters.
 */
export async function listPullFiles(
  github: GitHubClient,
  pull: { readonly owner: string; readonly repo: string; readonly number: number },
  most: number
): Promise<{ readonly entries: readonly unknown[]; readonly complete: boolean }> {
  const where = { owner: pull.owner, repo: pull.repo, pull_number: pull.number, per_page: PER_PAGE }
  const entries: unknown[] = []
  let more = false
  for await (const page of github.octokit.paginate.iterator(github.octokit.rest.pulls.listFiles, where)) {
    entries.push(...listOf(page.data))
    if (entries.length >= most) {
      more = entries.length > most || /rel="next"/.test(page.headers.link ?? '')
      break
    }
  }
  return { entries: entries.slice(0, most), complete: !more && entries.length < GITHUB_MOST_FILES }
}

/** The compare's files (GitHub lists them with the first page) and its latest commits (on its last pages). */
async function readCompare(github: GitHubClient, fetch: ChangeFetch & { kind: 'compare' }): Promise<FetchedChanges> {
  const compare = async (page: number) => {
    const { data } = await github.octokit.rest.repos.compareCommitsWithBasehead({
      owner: fetch.owner,
      repo: fetch.repo,
      basehead: `${fetch.base}...${fetch.head}`,
      per_page: PER_PAGE,
      page
    })
    return fieldsOf(data)
  }
  const first = await compare(1)
  const firstCommits = listOf(first['commits'])
  const total = countOf(first['total_commits']) ?? firstCommits.length
  const lastPage = Math.max(1, Math.ceil(total / PER_PAGE))
  const pages =
    lastPage === 1
      ? []
      : [lastPage, ...(total % PER_PAGE > 0 && total % PER_PAGE < LATEST_COMMITS ? [lastPage - 1] : [])]
  const later = await Promise.all(
    pages.sort((a, b) => a - b).map(async (page) => listOf((await compare(page))['commits']))
  )
  const commits = (pages.length === 0 ? firstCommits : later.flat()).map(commitOf)
  const status = textOf(first['status'])
  const files = listOf(first['files'])
  return {
    ...changedFilesOf(files.slice(0, MOST_FILES)),
    // The compare lists 300 files at most, and says nothing of the others.
    ...(files.length >= MOST_FILES ? { filesCut: true } : {}),
    commits: commits.slice(-LATEST_COMMITS),
    commitsTotal: total,
    ...(status === '' ? {} : { compareStatus: status })
  }
}

const STATUSES: readonly FileStatus[] = ['added', 'removed', 'modified', 'renamed', 'copied', 'changed', 'unchanged']

function changedFileOf(entry: unknown): ChangedFile | undefined {
  const file = fieldsOf(entry)
  const path = textOf(file['filename'])
  if (path === '') return undefined
  return {
    path,
    previousPath: textOf(file['previous_filename']) || undefined,
    status: STATUSES.find((status) => status === file['status']) ?? 'changed',
    additions: countOf(file['additions']),
    deletions: countOf(file['deletions']),
    patch: textOf(file['patch']) || undefined
  }
}

/** The files GitHub listed, and how many of its entries had no usable name. */
export function changedFilesOf(entries: readonly unknown[]): Pick<FetchedChanges, 'files' | 'filesUnusable'> {
  const files = entries.map(changedFileOf).filter((file) => file !== undefined)
  return { files, filesUnusable: entries.length - files.length }
}

/** A commit the compare API lists: its sha, message and author, each empty when not text. */
export function commitOf(entry: unknown): Commit {
  const commit = fieldsOf(entry)
  return {
    sha: textOf(commit['sha']),
    message: textOf(fieldsAt(commit, 'commit')['message']),
    author: firstTextOf(fieldsAt(commit, 'author')['login'], fieldsAt(commit, 'commit', 'author')['name'])
  }
}

/** A commit on the branch, as the commit lists show it: the compare's commit, and when it was committed. */
export function branchCommit(entry: unknown): BranchCommit {
  const commit = fieldsAt(entry, 'commit')
  const date = Date.parse(firstTextOf(fieldsAt(commit, 'committer')['date'], fieldsAt(commit, 'author')['date']))
  return { ...commitOf(entry), date: date || 0 }
}

/** A merged pull request, as the pull request list shows it; undefined when it is not one. */
export function mergedPull(entry: unknown, repository: string): MergedPull | undefined {
  const pull = fieldsOf(entry)
  const number = positiveIntegerOf(pull['number'])
  const mergedAt = Date.parse(textOf(pull['merged_at']))
  const mergeCommit = textOf(pull['merge_commit_sha'])
  if (number === undefined || !Number.isFinite(mergedAt) || !/^[0-9a-f]{40}$/i.test(mergeCommit)) return undefined
  const user = fieldsAt(pull, 'user')
  const facts: PullRequestFacts = {
    kind: 'pull-request',
    action: 'closed',
    draft: false,
    headSha: '',
    createdAt: undefined,
    repository,
    number,
    title: textOf(pull['title']),
    url: httpUrlOf(pull['html_url']),
    author: textOf(user['login']),
    baseRef: textOf(fieldsAt(pull, 'base')['ref']),
    headRef: textOf(fieldsAt(pull, 'head')['ref']),
    headRepository: undefined,
    merged: true,
    closed: true,
    mergeCommitSha: mergeCommit,
    labels: listOf(pull['labels'])
      .map((label) => textOf(fieldsOf(label)['name']))
      .filter((name) => name !== ''),
    body: textOf(pull['body']),
    changedFiles: undefined,
    additions: undefined,
    deletions: undefined,
    commitCount: undefined
  }
  return { facts, mergeCommit: mergeCommit.toLowerCase(), mergedAt }
}
