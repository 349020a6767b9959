// What `mode: batch` reads of the repository, and writes besides its tracking comment: the branch and its head, the
// commits after the cursor, the pull requests merged into the branch, each one's files, the digest issue that keeps
// the batches' records (opened on first use), and the one-line note on each covered pull request.
import { context } from '@actions/github'
import type { Settings } from '../inputs/settings.ts'
import type { Logger } from '../runner/io.ts'
import type { Transport } from '../transport/transport.ts'
import { redactedDeep } from '../text/redact.ts'
import type { FetchedChanges, PullRequestFacts } from './change.ts'
import { readChanges } from './change-reader.ts'
import { createGitHubClient, githubAccess, type GitHubClient } from './client.ts'
import { fieldsAt, fieldsOf, firstTextOf, httpUrlOf, listOf, positiveIntegerOf, textOf } from './fields.ts'

/** A commit on the branch: its sha, when it was committed, its message's text and its author. */
export interface BranchCommit {
  readonly sha: string
  readonly date: number
  readonly message: string
  readonly author: string
}

/** A pull request merged into the branch, as the pull request list tells it. */
export interface MergedPull {
  readonly facts: PullRequestFacts
  readonly mergeCommit: string
  readonly mergedAt: number
}

/** The commits after a start, up to the branch's head, oldest first. */
export interface CommitWindow {
  readonly commits: readonly BranchCommit[]
  /** The start was a commit no longer in the branch's history (rewritten): the window starts at its date instead. */
  readonly rewritten: boolean
}

/** The most pages of 100 a listing reads: ten (a thousand commits, or pull requests). */
const MOST_PAGES = 10

export class History {
  readonly #client: GitHubClient
  readonly #writes: () => GitHubClient
  readonly #settings: Settings
  readonly #redact: (text: string) => string
  readonly owner: string
  readonly repo: string

  constructor(
    settings: Settings,
    transport: Transport,
    where: { repository: string; deadlineMs: number; log: Logger }
  ) {
    const access = githubAccess(settings.githubToken, context.apiUrl, transport, (message) => {
      where.log.debug(message)
    })
    this.#settings = settings
    this.#redact = transport.redact
    const { requestTimeoutMs } = settings
    this.#client = createGitHubClient(transport, access, {
      deadlineMs: where.deadlineMs,
      cancellable: true,
      throttled: true,
      requestTimeoutMs
    })
    this.#writes = () =>
      createGitHubClient(transport, access, {
        deadlineMs: where.deadlineMs,
        cancellable: false,
        throttled: true,
        requestTimeoutMs
      })
    ;[this.owner = '', this.repo = ''] = where.repository.split('/')
  }

  /** How many requests the reads took so far. */
  requests(): number {
    return this.#client.requestCount()
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
    const compare = (page: number) =>
      this.#client.octokit.rest.repos.compareCommitsWithBasehead({
        owner: this.owner,
        repo: this.repo,
        basehead: `${from}...${branch}`,
        per_page: 100,
        page
      })
    const first = fieldsOf((await this.#read(() => compare(1))).data)
    const status = textOf(first['status'])
    if (status !== 'ahead' && status !== 'identical')
      return { commits: await this.since(since, branch), rewritten: true }
    const commits = listOf(first['commits']).map(branchCommit)
    for (let page = 2; commits.length < Number(first['total_commits'] ?? 0) && page <= MOST_PAGES; page++) {
      commits.push(...listOf(fieldsOf((await this.#read(() => compare(page))).data)['commits']).map(branchCommit))
    }
    return { commits, rewritten: false }
  }

  /** The commits on the branch since a date, oldest first. */
  async since(since: number, branch: string): Promise<BranchCommit[]> {
    const newestFirst: BranchCommit[] = []
    const pages = this.#client.octokit.paginate.iterator(this.#client.octokit.rest.repos.listCommits, {
      owner: this.owner,
      repo: this.repo,
      sha: branch,
      since: new Date(since).toISOString(),
      per_page: 100
    })
    let page = 0
    for await (const { data } of pages) {
      newestFirst.push(...listOf(data).map(branchCommit))
      if (++page >= MOST_PAGES) break
    }
    return newestFirst.reverse()
  }

  /** The pull requests merged into the branch since `since`, newest first as GitHub lists them by update. */
  async merged(branch: string, since: number): Promise<MergedPull[]> {
    const found: MergedPull[] = []
    const pages = this.#client.octokit.paginate.iterator(this.#client.octokit.rest.pulls.list, {
      owner: this.owner,
      repo: this.repo,
      state: 'closed',
      base: branch,
      sort: 'updated',
      direction: 'desc',
      per_page: 100
    })
    let page = 0
    for await (const { data } of pages) {
      const listed = listOf(data)
      for (const entry of listed) {
        const pull = mergedPull(redactedDeep(entry, this.#redact), `${this.owner}/${this.repo}`)
        if (pull && pull.mergedAt >= since) found.push(pull)
      }
      const oldest = Date.parse(textOf(fieldsOf(listed.at(-1))['updated_at']))
      if (++page >= MOST_PAGES || !(oldest >= since)) break
    }
    return found
  }

  /** One merged pull request's files; throws when GitHub cannot tell them (the pull request waits for the next run). */
  async files(pull: PullRequestFacts): Promise<FetchedChanges> {
    const fetch = { kind: 'pull-request-files', owner: this.owner, repo: this.repo, number: pull.number } as const
    const read = await this.#read(() => readChanges(this.#client, fetch, 'gates'))
    if (read.warnings.length > 0 || read.fetched.unreadable) throw new Error(read.warnings.join(' '))
    return redactedDeep(read.fetched, this.#redact) as FetchedChanges
  }

  /** The open issue labelled `label`, opening it when there is none: its number. */
  async digest(label: string): Promise<number> {
    const { data } = await this.#read(() =>
      this.#client.octokit.rest.issues.listForRepo({
        owner: this.owner,
        repo: this.repo,
        labels: label,
        state: 'open',
        per_page: 100
      })
    )
    const open = listOf(data)
      .map((issue) => positiveIntegerOf(fieldsOf(issue)['number']))
      .filter((number) => number !== undefined)
    if (open.length > 0) return Math.min(...open)
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

  #read<T>(read: () => Promise<T>): Promise<T> {
    return this.#client.bounded(read())
  }
}

const DIGEST_BODY =
  'Each comment below is one batch of `mode: batch`: the pull requests it covered, its agent job, and the docs pull ' +
  'request it opened. The comments are also the record the next batch starts from: keep them.'

function branchCommit(entry: unknown): BranchCommit {
  const commit = fieldsAt(entry, 'commit')
  return {
    sha: textOf(fieldsOf(entry)['sha']),
    date: Date.parse(firstTextOf(fieldsAt(commit, 'committer')['date'], fieldsAt(commit, 'author')['date'])) || 0,
    message: textOf(commit['message']),
    author: firstTextOf(fieldsAt(entry, 'author')['login'], fieldsAt(commit, 'author')['name'])
  }
}

function mergedPull(entry: unknown, repository: string): MergedPull | undefined {
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
