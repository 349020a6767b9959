// What `mode: batch` reads of the repository, and writes besides its tracking comment: the branch and its head, the
// commits after the cursor, the pull requests merged into the branch, each one's files, and the one-line note on each
// covered pull request. The digest issue that keeps the batches' records is digest.ts's.
import type { Settings } from '../inputs/settings.ts'
import { redactedDeep } from '../text/redact.ts'
import type { BranchCommit, FetchedChanges, MergedPull, PullRequestFacts } from './change.ts'
import { branchCommit, readChanges } from './change-reader.ts'

export type { BranchCommit, MergedPull } from './change.ts'
export type { MergedListing } from './merged-pulls.ts'
import type { GitHubClient } from './octokit.ts'
import { fieldsAt, fieldsOf, lastPageOf, listOf, textOf, unlessNotFound } from './fields.ts'
import { listMerged, type MergedListing, mergedBy, type PullsAt } from './merged-pulls.ts'
import { DigestIssue } from './digest.ts'
import type { GitHubSession } from './session.ts'

/** The commits after a start, up to the branch's head, oldest first. */
export interface CommitWindow {
  readonly commits: readonly BranchCommit[]
  /** The start was a commit no longer in the branch's history (rewritten): the window starts at its date instead. */
  readonly rewritten: boolean
  /** More commits came after these than one batch reads: the window ends early, and the next batch goes on. */
  readonly more: boolean
}

/** The most pages of 100 a listing reads: ten (a thousand commits, or pull requests). */
const MOST_PAGES = 10

export class History {
  readonly #session: GitHubSession
  readonly #client: GitHubClient
  readonly #settings: Settings
  readonly #redact: (text: string) => string
  readonly owner: string
  readonly repo: string

  constructor(session: GitHubSession) {
    this.#session = session
    this.#settings = session.settings
    this.#redact = session.redact
    this.#client = session.client({ cancellable: true })
    ;({ owner: this.owner = '', name: this.repo = '' } = session.repo ?? {})
  }

  #writes(): GitHubClient {
    return this.#session.client({ cancellable: false })
  }

  /** How many calls to GitHub the reads took so far (the digest issue's included). */
  calls(): number {
    return this.#client.callCount()
  }

  /** The branch the batch follows: `batch-branch`, or the repository's default branch. */
  async branch(): Promise<string> {
    if (this.#settings.batch.branch !== undefined) return this.#settings.batch.branch
    const { data } = await this.#read(() => this.#client.octokit.rest.repos.get({ owner: this.owner, repo: this.repo }))
    return textOf(fieldsOf(data)['default_branch']) || 'main'
  }

  /** The branch's head commit. */
  async head(branch: string): Promise<BranchCommit> {
    const { data } = await this.#read(() =>
      this.#client.octokit.rest.repos.getBranch({ owner: this.owner, repo: this.repo, branch })
    )
    return branchCommit(fieldsAt(data, 'commit'))
  }

  /** The commits after `from` (a commit) up to the branch's head; after `since` when `from` was rewritten away. */
  async after(from: string, since: number, branch: string): Promise<CommitWindow> {
    return (await this.#compare(from, branch)) ?? { ...(await this.since(since, branch)), rewritten: true }
  }

  /**
   * The commits on the branch since a date, oldest first. GitHub lists them newest first: when there are more than
   * one batch reads, the window starts at the oldest one and goes on from there, so that none is left out.
   */
  async since(since: number, branch: string): Promise<CommitWindow> {
    const params = { owner: this.owner, repo: this.repo, sha: branch, since: new Date(since).toISOString() }
    const list = this.#client.octokit.rest.repos.listCommits
    const newestFirst: BranchCommit[] = []
    let page = 0
    for await (const { data, headers } of this.#client.octokit.paginate.iterator(list, { ...params, per_page: 100 })) {
      newestFirst.push(...listOf(data).map(branchCommit))
      if (++page < MOST_PAGES) continue
      const last = lastPageOf(headers.link)
      if (last <= page) break
      let oldest: BranchCommit | undefined
      for await (const older of this.#client.octokit.paginate.iterator(list, { ...params, per_page: 100, page: last }))
        oldest = listOf(older.data).map(branchCommit).at(-1) ?? oldest
      const after = oldest && (await this.#compare(oldest.sha, branch))
      if (!oldest || !after) throw new Error(`the history of ${branch} changed while it was read`)
      return { ...after, commits: [oldest, ...after.commits] }
    }
    const seen = new Set<string>()
    const commits = newestFirst.reverse().filter((commit) => !seen.has(commit.sha) && seen.add(commit.sha))
    return { commits, rewritten: false, more: false }
  }

  /** The commits after `from` up to the head, oldest first; undefined when `from` is not in its history, or gone. */
  async #compare(from: string, branch: string): Promise<CommitWindow | undefined> {
    const compare = (page: number) =>
      this.#client.octokit.rest.repos.compareCommitsWithBasehead({
        owner: this.owner,
        repo: this.repo,
        basehead: `${from}...${branch}`,
        per_page: 100,
        page
      })
    const answered = await this.#read(() => compare(1)).catch(unlessNotFound)
    if (answered === undefined) return undefined
    const first = fieldsOf(answered.data)
    const status = textOf(first['status'])
    if (status !== 'ahead' && status !== 'identical') return undefined
    const total = Number(first['total_commits'] ?? 0)
    const commits = listOf(first['commits']).map(branchCommit)
    for (let page = 2; commits.length < total && page <= MOST_PAGES; page++) {
      commits.push(...listOf(fieldsOf((await this.#read(() => compare(page))).data)['commits']).map(branchCommit))
    }
    return { commits, rewritten: false, more: commits.length < total }
  }

  /** The pull requests merged into the branch since `since`, as far as one listing goes (see listMerged). */
  merged(branch: string, since: number): Promise<MergedListing> {
    return this.#read(() => listMerged(this.#client, this.#at(), branch, since))
  }

  /** The pull request this commit merged into the branch, if one did. */
  mergedBy(sha: string, branch: string): Promise<MergedPull | undefined> {
    return this.#read(() => mergedBy(this.#client, this.#at(), sha, branch))
  }

  /** One merged pull request's files; throws when GitHub cannot tell them (the pull request waits for the next run). */
  async files(pull: PullRequestFacts): Promise<FetchedChanges> {
    const fetch = { kind: 'pull-request-files', owner: this.owner, repo: this.repo, number: pull.number } as const
    const read = await this.#read(() => readChanges(this.#client, fetch, 'gates'))
    if (read.warnings.length > 0 || read.fetched.unreadable) throw new Error(read.warnings.join(' '))
    return redactedDeep(read.fetched, this.#redact) as FetchedChanges
  }

  /**
   * The digest issue, found and opened on this history's reads: the batch's line in the log counts its calls with
   * the others.
   */
  digestIssue(): DigestIssue {
    return new DigestIssue(this.#session, this.#client)
  }

  /** A one-line comment on a covered pull request. */
  async note(number: number, body: string): Promise<void> {
    const writes = this.#writes()
    await writes.bounded(
      writes.octokit.rest.issues.createComment({
        owner: this.owner,
        repo: this.repo,
        issue_number: number,
        body,
        request: { retries: 0 }
      })
    )
  }

  #at(): PullsAt {
    return { owner: this.owner, repo: this.repo, redact: this.#redact }
  }

  #read<T>(read: () => Promise<T>): Promise<T> {
    return this.#client.bounded(read())
  }
}
