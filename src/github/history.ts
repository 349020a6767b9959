// What `mode: batch` reads of the repository, and writes besides its tracking comment: the branch and its head, the
// commits after the cursor, the pull requests merged into the branch, each one's files, the digest issue that keeps
// the batches' records (opened on first use), and the one-line note on each covered pull request.
import type { Settings } from '../inputs/settings.ts'
import type { Logger } from '../runner/io.ts'
import { redactedDeep } from '../text/redact.ts'
import { forLog } from '../text/untrusted.ts'
import type { BranchCommit, FetchedChanges, MergedPull, PullRequestFacts } from './change.ts'
import { branchCommit, readChanges } from './change-reader.ts'

export type { BranchCommit, MergedPull } from './change.ts'
export type { MergedListing } from './merged-pulls.ts'
import type { GitHubClient } from './octokit.ts'
import { fieldsAt, fieldsOf, lastPageOf, listOf, positiveIntegerOf, textOf, unlessNotFound } from './fields.ts'
import { listMerged, type MergedListing, mergedBy, type PullsAt } from './merged-pulls.ts'
import { type GitHubReads, ownBatchRecordAt } from './reads.ts'
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
  readonly #log: Logger
  readonly owner: string
  readonly repo: string

  constructor(session: GitHubSession) {
    this.#session = session
    this.#settings = session.settings
    this.#redact = session.redact
    this.#log = session.log
    this.#client = session.client({ cancellable: true })
    ;({ owner: this.owner = '', name: this.repo = '' } = session.repo ?? {})
  }

  #writes(): GitHubClient {
    return this.#session.client({ cancellable: false })
  }

  /** How many requests the reads took so far. */
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
   * The digest issue: of the issues labelled `label`, open or closed, the one that holds the action's own batch records
   * of this project (written by the token's identity: anyone else's are no records); else the issue that holds them
   * among the repository's latest comments, labelled again; else the lowest open one labelled; else a new one.
   */
  async digest(label: string, reads: GitHubReads): Promise<number> {
    const labelled = await this.#labelled(label)
    const me = await this.#session.login()
    if (me === undefined) throw new Error('GitHub did not say who the token acts as, to find its batch records')
    const kept = await this.#holding(labelled, me)
    const others = labelled.filter((issue) => issue.number !== kept?.number).map((issue) => `#${issue.number}`)
    if (kept !== undefined) {
      if (!kept.open)
        this.#log.info(`The digest issue #${kept.number} is closed: it keeps the batches' records, which go on there.`)
      if (others.length > 0)
        this.#log.info(
          `Also labelled "${forLog(label, 80)}", with no batch record of this action: ${others.join(', ')}; left alone.`
        )
      return kept.number
    }
    const found = await reads.latestBatchRecord()
    if (found.issue !== undefined) {
      await this.#labelAgain(found.issue, label)
      return found.issue
    }
    if (!found.complete) {
      this.#log.warning(
        `No batch record of this action was found on the issues labelled "${forLog(label, 80)}", nor in the repository's ${(MOST_PAGES * 100).toLocaleString('en-US')} most recently updated comments: this batch starts at batch-since. If an earlier digest issue lost its label, label it "${forLog(label, 80)}" again.`
      )
    }
    return labelled.find((issue) => issue.open)?.number ?? (await this.#openDigest(label))
  }

  /** The issues labelled `label`, open or closed, lowest number first. */
  async #labelled(label: string): Promise<{ readonly number: number; readonly open: boolean }[]> {
    const found: { number: number; open: boolean }[] = []
    const params = { owner: this.owner, repo: this.repo, labels: label, state: 'all' as const, per_page: 100 }
    let page = 0
    for await (const { data } of this.#client.octokit.paginate.iterator(
      this.#client.octokit.rest.issues.listForRepo,
      params
    )) {
      for (const issue of listOf(data)) {
        const number = positiveIntegerOf(fieldsOf(issue)['number'])
        if (number !== undefined) found.push({ number, open: textOf(fieldsOf(issue)['state']) !== 'closed' })
      }
      if (++page >= MOST_PAGES) break
    }
    return found.sort((a, b) => a.number - b.number)
  }

  /** Of these issues, the one whose newest batch record of the action's own is the latest; undefined if none has one. */
  async #holding<T extends { readonly number: number }>(issues: readonly T[], me: string): Promise<T | undefined> {
    let kept: { issue: T; at: number } | undefined
    for (const issue of issues.slice(0, MOST_PAGES)) {
      const params = { owner: this.owner, repo: this.repo, issue_number: issue.number, per_page: 100 }
      let [page, at] = [0, 0]
      for await (const { data } of this.#client.octokit.paginate.iterator(
        this.#client.octokit.rest.issues.listComments,
        params
      )) {
        for (const comment of listOf(data)) at = Math.max(at, ownBatchRecordAt(comment, me, this.#settings.projectId))
        // With one issue to choose from, one record is enough; with several, the newest one tells.
        if ((at > 0 && issues.length === 1) || ++page >= MOST_PAGES) break
      }
      if (at > (kept?.at ?? 0)) kept = { issue, at }
    }
    return kept?.issue
  }

  /** The issue that keeps the batches' records had lost its label: labelled again, so that the next run finds it. */
  async #labelAgain(number: number, label: string): Promise<void> {
    const writes = this.#writes()
    await writes.bounded(
      writes.octokit.rest.issues.addLabels({
        owner: this.owner,
        repo: this.repo,
        issue_number: number,
        labels: [label]
      })
    )
    this.#log.warning(
      `Issue #${number} keeps the batches' records but was no longer labelled "${forLog(label, 80)}": labelled again, and used as the digest issue.`
    )
  }

  /** A new digest issue, labelled `label`: its number. */
  async #openDigest(label: string): Promise<number> {
    const writes = this.#writes()
    const created = await writes.bounded(
      writes.octokit.rest.issues.create({
        owner: this.owner,
        repo: this.repo,
        title: 'Docs digest',
        body: DIGEST_BODY,
        labels: [label],
        // Never twice: a 5xx may come after GitHub made the issue, which the next run finds by its label.
        request: { retries: 0 }
      })
    )
    const number = positiveIntegerOf(fieldsOf(created.data)['number'])
    if (number === undefined) throw new Error('GitHub gave the new digest issue no number')
    return number
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

const DIGEST_BODY =
  'Each comment below is one batch of `mode: batch`: the pull requests it covered, its agent job, and the docs pull ' +
  'request it opened. The comments are also the record the next batch starts from: keep them.'
