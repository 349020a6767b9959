import type { Commit } from './change-facts.ts'

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
  /** How many files GitHub listed without a usable name: they are left out of `files`. */
  readonly filesUnusable?: number | undefined
  /** A push's commits from the compare API, oldest first. */
  readonly commits?: readonly Commit[] | undefined
  /** How many commits the compare holds, when more than it listed. */
  readonly commitsTotal?: number | undefined
  /** Reads that failed, in our own words, such as "the pull request's files could not be read". */
  readonly unreadable?: readonly string[] | undefined
}
