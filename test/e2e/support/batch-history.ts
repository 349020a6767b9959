// A branch's history for mode: batch's end-to-end tests: merged pull requests, each with one file, and commits pushed
// without a pull request, which the simulated GitHub serves.
import type { HistoryCommit, MergedPull, SimulatedHistory } from '../../../sim/github-history.ts'

export const hoursAgo = (hours: number): string => new Date(Date.now() - hours * 3_600_000).toISOString()
export const shaOf = (n: number): string => n.toString(16).padStart(40, 'c')

/** Pull request `number`, merged at `date` by its merge commit `shaOf(number)`, changing `src/part-<number>.ts`. */
export function mergedPull(number: number, date: string): MergedPull {
  return {
    number,
    title: `Change number ${number}`,
    user: 'octocat',
    mergedAt: date,
    mergeCommit: shaOf(number),
    body: `Body of pull request ${number}.`,
    files: [
      {
        filename: `src/part-${number}.ts`,
        status: 'modified',
        additions: 4,
        deletions: 1,
        patch: `@@ -1 +1 @@\n-old ${number}\n+new ${number}`
      }
    ]
  }
}

/**
 * A branch whose history is a merge commit for each of these pull requests, one every hour, then the `direct` commits
 * (by their messages), ending an hour ago.
 */
export function historyOf(numbers: readonly number[], direct: readonly string[] = []): SimulatedHistory {
  const commits: HistoryCommit[] = []
  const merged: MergedPull[] = []
  const total = numbers.length + direct.length
  numbers.forEach((number, index) => {
    const date = hoursAgo(total - index + 1)
    commits.push({ sha: shaOf(number), message: `Merge pull request #${number}`, author: 'octocat', date })
    merged.push(mergedPull(number, date))
  })
  direct.forEach((message, index) => {
    commits.push({ sha: shaOf(9000 + index), message, author: 'hubot', date: hoursAgo(direct.length - index) })
  })
  return { branch: 'main', commits, merged }
}

/** Merges another pull request into the branch, now. */
export function merge(history: SimulatedHistory, number: number): void {
  const date = new Date().toISOString()
  history.commits.push({ sha: shaOf(number), message: `Merge pull request #${number}`, author: 'octocat', date })
  history.merged.push(mergedPull(number, date))
}
