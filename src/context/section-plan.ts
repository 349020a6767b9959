import type { ListPlan } from './fit-list.ts'

/** A quoted body: a pull request's, an issue's, a comment's, or a release's notes. */
export interface QuotePlan {
  /** Our own line above the fenced body. */
  readonly label: string
  /** Sanitized; empty when there is nothing to quote. */
  readonly content: string
  /** Our own line in place of an empty body. */
  readonly ifEmpty: string
}

export interface DiffPlan {
  /** The file's place in the list of files. */
  readonly index: number
  /** Our own line above the diff, naming the file. */
  readonly label: string
  /** Sanitized, not empty. */
  readonly patch: string
}

export interface FileListing {
  readonly list: ListPlan
  /** How many files changed, listed or not. */
  readonly total: number
  /** The listed files' diffs to show, in the order GitHub listed the files. */
  readonly diffs: readonly DiffPlan[]
  readonly skipped: { readonly generated: number; readonly noPatch: number }
}

export interface CommitListing {
  readonly list: ListPlan
  readonly total: number
}

/** What the section will say, in order, before the budget is reckoned. */
export interface SectionPlan {
  /** The heading that names the change, such as "Pull request #12 in `acme/widgets`, merged". */
  readonly identity: string
  /** One line each, `- Name: value`. */
  readonly facts: readonly string[]
  readonly commits: CommitListing | undefined
  readonly files: FileListing | undefined
  readonly quotes: readonly QuotePlan[]
}
