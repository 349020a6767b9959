// A change as GitHub tells it: what the event that started the run says about it, narrowed from its payload, and what
// must still be read from GitHub (a pull request's files, a push's compare) to describe it. Text fields hold the text
// as written: it is made safe where it is shown.

/** A commit, as a push payload or the compare API lists it. */
export interface Commit {
  readonly sha: string
  /** The whole message; only its first line is shown. */
  readonly message: string
  /** The author's GitHub login when known, else the name in the commit; empty when neither is. */
  readonly author: string
}

export interface PullRequestFacts {
  readonly kind: 'pull-request'
  /** What happened to it: `opened`, `synchronize`, `closed`…; empty when the payload does not say. */
  readonly action: string
  readonly draft: boolean
  /** Its head commit: what a pair's prompt describes. Empty unless a commit name. */
  readonly headSha: string
  /** When it was opened (milliseconds since the epoch); undefined when the payload does not say. */
  readonly createdAt: number | undefined
  /** `owner/name`. */
  readonly repository: string
  readonly number: number
  readonly title: string
  /** The pull request's page; empty unless the payload's is an http(s) URL. */
  readonly url: string
  /** The author's login. */
  readonly author: string
  readonly baseRef: string
  readonly headRef: string
  /** The head's repository (`owner/name`) when it is another one, such as a fork. */
  readonly headRepository: string | undefined
  readonly merged: boolean
  readonly closed: boolean
  /** Only when merged: before that, GitHub's merge commit is a test merge. */
  readonly mergeCommitSha: string | undefined
  readonly labels: readonly string[]
  readonly body: string
  /** GitHub's totals for the whole pull request, when the payload has them. */
  readonly changedFiles: number | undefined
  readonly additions: number | undefined
  readonly deletions: number | undefined
  readonly commitCount: number | undefined
  /** The review comment on its diff that started the run (`pull_request_review_comment`). */
  readonly comment?: CommentFacts | undefined
}

export interface PushFacts {
  readonly kind: 'push'
  readonly repository: string
  /** Such as `refs/heads/main` or `refs/tags/v1.2.0`. */
  readonly ref: string
  readonly before: string
  readonly after: string
  /** Empty unless the payload's is an http(s) URL. */
  readonly compareUrl: string
  readonly created: boolean
  readonly deleted: boolean
  readonly forced: boolean
  /** Who pushed: a login or a name. */
  readonly pusher: string
  /** As the payload lists them: oldest first, and not always all of them. */
  readonly commits: readonly Commit[]
  /** How many commits the push holds, when the payload says (`size`). */
  readonly commitsTotal: number | undefined
  readonly headCommit: Commit | undefined
}

export interface ReleaseFacts {
  readonly kind: 'release'
  readonly repository: string
  readonly tag: string
  readonly name: string
  readonly url: string
  readonly author: string
  readonly body: string
  readonly draft: boolean
  readonly prerelease: boolean
}

export interface CommentFacts {
  readonly author: string
  readonly url: string
  readonly body: string
}

export interface IssueFacts {
  readonly kind: 'issue'
  readonly repository: string
  readonly number: number
  readonly title: string
  readonly url: string
  readonly author: string
  readonly body: string
  /** An `issue_comment` on a pull request's conversation carries the pull request as its issue. */
  readonly isPullRequest: boolean
  readonly labels: readonly string[]
  /** The comment that started the run (`issue_comment`). */
  readonly comment: CommentFacts | undefined
}

export interface NoFacts {
  readonly kind: 'none'
  /** Why there is nothing to add, naming the event: our own words, fit for a warning. */
  readonly reason: string
}

/** With `mode: pair`: a pull request's new commits since the head the last prompt described. */
export interface PullRequestUpdateFacts {
  readonly kind: 'pull-request-update'
  readonly repository: string
  readonly number: number
  readonly title: string
  readonly url: string
  /** The head the last prompt described. */
  readonly before: string
  /** The head now. */
  readonly after: string
}

export type ChangeFacts = PullRequestFacts | PullRequestUpdateFacts | PushFacts | ReleaseFacts | IssueFacts | NoFacts

/** What to read from GitHub to describe the change: its files (and a push's commits), or nothing. */
export type ChangeFetch =
  | { readonly kind: 'pull-request-files'; readonly owner: string; readonly repo: string; readonly number: number }
  | {
      readonly kind: 'compare'
      readonly owner: string
      readonly repo: string
      /** The commit before the push. */
      readonly base: string
      /** The commit after it. */
      readonly head: string
    }
  | { readonly kind: 'none' }

export interface EventFacts {
  readonly facts: ChangeFacts
  readonly fetch: ChangeFetch
}

/** A change as the event says it and GitHub tells it, read once for the gates and the prompt. */
export interface EventChange {
  readonly facts: ChangeFacts
  /** What was read from GitHub; `{}` when nothing was, or nothing could be. */
  readonly fetched: FetchedChanges
  /** How many calls to GitHub reading it took. */
  readonly calls: number
}

/** A file's status, as GitHub's API names it. */
export type FileStatus = 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged'

/** A changed file, as the pull request files or compare API lists it. */
export interface ChangedFile {
  readonly path: string
  /** The path before a rename or copy. */
  readonly previousPath?: string | undefined
  readonly status: FileStatus
  /** Lines added; undefined when GitHub's answer is not a count. */
  readonly additions: number | undefined
  /** Lines deleted; undefined when GitHub's answer is not a count. */
  readonly deletions: number | undefined
  /** The unified diff's hunks; GitHub leaves it out for binary and very large files. */
  readonly patch?: string | undefined
}

/** What was read from GitHub about the change; any part may be missing. */
export interface FetchedChanges {
  /** In the order GitHub listed them. */
  readonly files?: readonly ChangedFile[] | undefined
  /** How many files changed, when GitHub says more than it listed. */
  readonly filesTotal?: number | undefined
  /** GitHub holds more files than `files` lists (and than `filesTotal` counts, when that is unknown). */
  readonly filesCut?: boolean | undefined
  /** How many files GitHub listed without a usable name: they are left out of `files`. */
  readonly filesUnusable?: number | undefined
  /** A push's commits from the compare API, oldest first. */
  readonly commits?: readonly Commit[] | undefined
  /** How many commits the compare holds, when more than it listed. */
  readonly commitsTotal?: number | undefined
  /** Reads that failed, in our own words, such as "the pull request's files could not be read". */
  readonly unreadable?: readonly string[] | undefined
  /** A compare's status: `ahead` (the head descends from the base), `behind`, `diverged` or `identical`. */
  readonly compareStatus?: string | undefined
}

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
