import type { Commit } from './change-facts.ts'
import { counted } from './counted.ts'
import { quoted, quotedFirstLine, quotedSha } from './quoted.ts'
import type { CommitListing } from './section-plan.ts'

/** At most this many commits are listed: the latest. */
export const MAX_COMMITS_LISTED = 50

/** A commit's line: short sha, the first line of its message, its author. */
export function commitLine(commit: Commit): string {
  const author = quoted(commit.author, '')
  return `${quotedSha(commit.sha)} ${quotedFirstLine(commit.message, '(no message)')}${author ? ` by ${author}` : ''}`
}

/** The latest commits, newest first, from commits listed oldest first; `total` counts those not listed too. */
export function commitListing(oldestFirst: readonly Commit[], total: number | undefined): CommitListing {
  const shown = oldestFirst.slice(-MAX_COMMITS_LISTED).reverse()
  const all = Math.max(total ?? 0, oldestFirst.length)
  const list = {
    heading: `### Commits (${all}, newest first)`,
    items: shown.map((commit) => `- ${commitLine(commit)}`),
    alreadyLeftOut: all - shown.length,
    leftOutNote: (count: number) => `- … ${counted(count, 'earlier commit')} left out`
  }
  return { list, total: all }
}
