import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../../sim/settings.ts'
import { mergedIn } from '../../../../src/modes/batch/plan.ts'
import type { StepSetup } from '../../../../src/decide/decision.ts'
import type { BranchCommit, MergedPull } from '../../../../src/github/change.ts'
import { mergedPull } from '../../../../src/github/change-reader.ts'
import type { History } from '../../../../src/github/history.ts'

const NOW = Date.parse('2026-11-22T09:00:00Z')
const shaOf = (n: number): string => n.toString(16).padStart(40, 'c')
const commitOf = (n: number): BranchCommit => ({ sha: shaOf(n), date: NOW - n * 1000, message: `#${n}`, author: 'a' })
const pullOf = (n: number): MergedPull =>
  mergedPull(
    { number: n, merged_at: new Date(NOW).toISOString(), merge_commit_sha: shaOf(n), base: { ref: 'main' } },
    'acme/api'
  ) as MergedPull

/**
 * The pull requests merged by commits `numbers` (each its own, but the `direct` ones), with the listing holding
 * `listed` of them: `complete` when it held every one merged since.
 */
async function decide(numbers: number[], listed: number[], complete: boolean, more: { direct?: number[] } = {}) {
  const asked: number[] = []
  const lines: string[] = []
  const history = {
    merged: () => Promise.resolve({ pulls: listed.map(pullOf), complete }),
    mergedBy: (sha: string) => {
      const number = numbers.find((n) => shaOf(n) === sha) ?? 0
      asked.push(number)
      return Promise.resolve(more.direct?.includes(number) ? undefined : pullOf(number))
    }
  } as unknown as History
  const setup = {
    settings: settingsOf({ mode: 'batch', 'batch-limit': '3' }),
    clock: { date: () => NOW },
    log: { info: (line: string) => lines.push(line) }
  } as unknown as StepSetup
  const window = { commits: numbers.map(commitOf), rewritten: false, more: false }
  const found = await mergedIn(setup, history, { branch: 'main', window, covered: new Set([1]) })
  return { numbers: found.pulls.map((pull) => pull.facts.number), known: found.known, asked, lines }
}

describe('mergedIn', () => {
  it('takes the pull requests from a complete listing, in the order of the commits, asking nothing more', async () => {
    const found = await decide([1, 2, 3, 4, 5, 6], [6, 4, 2, 1], true)
    expect(found).toMatchObject({ numbers: [2, 4, 6], known: 6, asked: [] })
  })

  it('asks for each commit a listing cut short did not explain, oldest first, up to batch-limit', async () => {
    // The listing holds the newest updated: the oldest merged may be anywhere past it.
    const found = await decide([10, 11, 12, 13, 14, 15], [15, 14, 12], false, { direct: [11] })
    expect(found).toMatchObject({ numbers: [10, 12, 13], known: 4, asked: [10, 11, 13] })
    expect(found.lines.join('\n')).toContain('ends before cccc')
  })

  it('ends the batch before the first commit it could not tell, past the most it asks in one run', async () => {
    const numbers = Array.from({ length: 150 }, (_, n) => 100 + n)
    const found = await decide(numbers, [], false, { direct: numbers })
    expect(found).toMatchObject({ numbers: [], known: 100 })
    expect(found.asked).toHaveLength(100)
  })
})
