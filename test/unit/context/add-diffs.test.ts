import { describe, expect, it } from 'vitest'
import { addDiffs } from '../../../src/context/add-diffs.ts'
import { createBudget } from '../../../src/context/budget.ts'
import { emptyTally, type Tally } from '../../../src/context/report.ts'
import type { DiffPlan } from '../../../src/context/section-plan.ts'
import { readFences } from './markdown-reader.ts'

const patch = (lines: number): string =>
  ['@@ -1,1 +1,' + String(lines) + ' @@', ...Array.from({ length: lines }, (_, i) => `+line ${i + 1}`)].join('\n')
const diffs: DiffPlan[] = [
  { index: 0, label: 'Diff of `a.ts`:', patch: patch(3) },
  { index: 1, label: 'Diff of `b.ts`:', patch: patch(40) },
  { index: 2, label: 'Diff of `c.ts`:', patch: patch(3) },
  { index: 3, label: 'Diff of `d.ts`:', patch: patch(3) }
]

function added(limit: number, plans = diffs): { text: string; tally: Tally } {
  const budget = createBudget(limit)
  const tally = emptyTally()
  addDiffs(budget, plans, tally)
  return { text: budget.text(), tally }
}

describe('addDiffs', () => {
  it('adds every diff whole, in order, under one heading', () => {
    const { text, tally } = added(10_000)
    expect(text.startsWith('\n### Diffs\n\nDiff of `a.ts`:\n```diff\n@@ -1,1 +1,3 @@\n+line 1')).toBe(true)
    expect(readFences(text).blocks.map((block) => block.info)).toEqual(['diff', 'diff', 'diff', 'diff'])
    expect(tally).toMatchObject({ diffsWhole: 4, diffsCut: 0, diffsLeftOut: 0 })
  })

  it('cuts the first diff that does not fit at a line boundary, and leaves out the rest, saying so', () => {
    const { text, tally } = added(300)
    expect(text).toMatch(
      /\n\+line \d+\n```\n… \d+ more lines of this diff left out, and the diffs of 2 more files, to stay within the context limit\.\n$/
    )
    expect(tally).toMatchObject({ diffsWhole: 1, diffsCut: 1, diffsLeftOut: 2 })
    expect(tally.diffLinesLeftOut).toBe(41 - (readFences(text).blocks[1]?.content.split('\n').length ?? 0))
    expect(text.length).toBeLessThanOrEqual(300)
  })

  it('says how many diffs were left out when the next one does not fit at all', () => {
    const { text, tally } = added(155)
    expect(text).toMatch(/```\n\n… the diffs of 3 more files left out to stay within the context limit\.\n$/)
    expect(tally).toMatchObject({ diffsWhole: 1, diffsCut: 0, diffsLeftOut: 3 })
  })

  it('says so when no diff fits', () => {
    expect(added(100)).toMatchObject({
      text: '\n### Diffs\n\n… the diffs of 4 files left out to stay within the context limit.\n',
      tally: { diffsWhole: 0, diffsLeftOut: 4 }
    })
  })

  it('adds nothing without diffs', () => {
    expect(added(1000, []).text).toBe('')
  })
})
