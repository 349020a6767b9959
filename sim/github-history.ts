// A simulated repository's history, for the simulated GitHub: its default branch, the commits on it (oldest first),
// the pull requests merged into it, and its issues. Answers the reads of `mode: batch` as GitHub does: a branch's head,
// the commits since a date, a compare between two commits, the closed pull requests newest first, the pull request a
// commit merged, issues by label.
import type { SimulatedFile } from './github-api.ts'

export interface HistoryCommit {
  readonly sha: string
  readonly message: string
  readonly author: string
  /** When it was committed (ISO 8601). */
  readonly date: string
}

export interface MergedPull {
  readonly number: number
  readonly title: string
  readonly user: string
  readonly labels?: readonly string[]
  readonly body?: string
  /** The branch it was merged from; `pr-<number>` if not given. */
  readonly head?: string
  /** When it was merged (ISO 8601); its commit on the branch is `mergeCommit`. */
  readonly mergedAt: string
  readonly mergeCommit: string
  readonly files: readonly SimulatedFile[]
}

export interface SimulatedHistory {
  readonly branch: string
  /** Oldest first. Rewrite it to simulate a force-push. */
  commits: HistoryCommit[]
  readonly merged: MergedPull[]
  /** Commits GitHub no longer has (collected once a force-push left them behind): a compare from one answers 404. */
  collected?: readonly string[]
}

export interface SimulatedIssue {
  readonly number: number
  readonly title: string
  labels: string[]
  state: 'open' | 'closed'
}

/** The commits after `base` up to the head, oldest first, and whether `base` is in the history. */
export function compareWithHead(
  history: SimulatedHistory,
  base: string
): { status: 'ahead' | 'identical' | 'diverged'; commits: HistoryCommit[] } {
  const at = history.commits.findIndex((commit) => commit.sha === base)
  if (at < 0) return { status: 'diverged', commits: history.commits }
  const after = history.commits.slice(at + 1)
  return { status: after.length === 0 ? 'identical' : 'ahead', commits: after }
}

/** A commit as GitHub's commit lists show it. */
export function commitView(commit: HistoryCommit) {
  return {
    sha: commit.sha,
    commit: {
      message: commit.message,
      author: { name: commit.author, date: commit.date },
      committer: { name: commit.author, date: commit.date }
    },
    author: { login: commit.author },
    parents: []
  }
}

/** A merged pull request as the pull request list shows it. */
export function mergedView(repo: string, pull: MergedPull, base: string) {
  return {
    number: pull.number,
    title: pull.title,
    user: { login: pull.user, type: pull.user.endsWith('[bot]') ? 'Bot' : 'User' },
    labels: (pull.labels ?? []).map((name) => ({ name })),
    body: pull.body ?? '',
    state: 'closed',
    merged_at: pull.mergedAt,
    updated_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommit,
    base: { ref: base },
    head: { ref: pull.head ?? `pr-${pull.number}`, repo: { full_name: repo } },
    html_url: `https://github.com/${repo}/pull/${pull.number}`
  }
}
