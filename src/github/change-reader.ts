// What GitHub says about a change, for the prompt's "What changed" section: a pull request's files (with their
// diffs), or a push's compare (its commits and files), narrowed where they are read. A file without a usable name is
// left out and counted; any other field of the wrong type is taken as missing. A read that fails leaves its part
// out, in our own words.
import type { ChangedFile, ChangeFetch, Commit, FetchedChanges, FileStatus } from './change.ts'
import { type GitHubClient, httpStatusOf, isRateLimitAnswer } from './client.ts'
import { countOf, fieldsAt, fieldsOf, firstTextOf, listOf, textOf } from './fields.ts'

/** As many files as GitHub's compare lists at once; a pull request's files are read up to the same number. */
const MOST_FILES = 300
/** The latest commits the section lists. */
const LATEST_COMMITS = 50
const PER_PAGE = 100

export interface ReadChanges {
  readonly fetched: FetchedChanges
  /** What went wrong, for the log's warnings: our own words and an HTTP status, never GitHub's text. */
  readonly warnings: readonly string[]
}

export async function readChanges(github: GitHubClient, fetch: ChangeFetch): Promise<ReadChanges> {
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
      warnings: [`context: auto: ${unreadable} ${whyUnread(error, github, needs)}; the section leaves them out.`]
    }
  }
}

/**
 * Why a read failed, in parentheses: our own words and an HTTP status, never GitHub's text. A rate limit is not a
 * missing permission, and a failure without an answer is the network's.
 */
function whyUnread(error: unknown, github: GitHubClient, needs: string): string {
  const hit = github.rateLimitHit()
  if (hit !== undefined) {
    const which = hit.secondary ? 'secondary rate limit' : 'rate limit'
    return `(GitHub's ${which} for this token was reached, and it asked to wait ${hit.retryAfterS}s, past the deadline; it resets by itself)`
  }
  const status = httpStatusOf(error)
  if (isRateLimitAnswer(error)) return `(HTTP ${status ?? ''}: GitHub's rate limit for this token; it resets by itself)`
  const noAnswer = github.noAnswer(error)
  if (noAnswer !== undefined) return `(${noAnswer})`
  const why = status === undefined ? '(no answer)' : `(HTTP ${status})`
  return status === 403 || status === 404 ? `${why} (the token needs ${needs})` : why
}

async function readPullFiles(
  github: GitHubClient,
  fetch: ChangeFetch & { kind: 'pull-request-files' }
): Promise<FetchedChanges> {
  const entries: unknown[] = []
  for (let page = 1; entries.length < MOST_FILES; page++) {
    const { data } = await github.octokit.rest.pulls.listFiles({
      owner: fetch.owner,
      repo: fetch.repo,
      pull_number: fetch.number,
      per_page: PER_PAGE,
      page
    })
    const listed = listOf(data)
    entries.push(...listed)
    if (listed.length < PER_PAGE) break
  }
  return changedFilesOf(entries.slice(0, MOST_FILES))
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
  return {
    ...changedFilesOf(listOf(first['files']).slice(0, MOST_FILES)),
    commits: commits.slice(-LATEST_COMMITS),
    commitsTotal: total
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
