import { describe, expect, it } from 'vitest'
import { addQuotes } from '../../../src/context/add-quotes.ts'
import { createBudget } from '../../../src/context/budget.ts'
import { emptyTally } from '../../../src/context/report.ts'
import type { QuotePlan } from '../../../src/context/section-plan.ts'

const body = (content: string): QuotePlan => ({
  label: 'Body, as written by its author:',
  content,
  ifEmpty: 'No body.'
})
const lines = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n')

function added(limit: number, quotes: QuotePlan[], diffsFollow: boolean) {
  const budget = createBudget(limit)
  const tally = emptyTally()
  addQuotes(budget, quotes, diffsFollow, tally)
  return { text: budget.text(), bodiesCut: tally.bodiesCut }
}

describe('addQuotes', () => {
  it('quotes a body whole in a fence', () => {
    expect(added(1000, [body('Adds retries.')], false)).toEqual({
      text: '\nBody, as written by its author:\n```markdown\nAdds retries.\n```\n',
      bodiesCut: 0
    })
  })

  it('says when a body is empty', () => {
    expect(added(1000, [body('')], false).text).toBe('\nNo body.\n')
  })

  it('cuts a long body at a line boundary, saying how many lines were left out', () => {
    const expected =
      '\nBody, as written by its author:\n```markdown\nline 1\nline 2\n```\n… 28 more lines of this text left out to stay within the context limit.\n'
    const { text, bodiesCut } = added(expected.length + 6, [body(lines(30))], false)
    expect(text).toBe(expected)
    expect(bodiesCut).toBe(1)
  })

  it('leaves half the room to the diffs that follow', () => {
    expect(added(600, [body(lines(100))], true).text.length).toBeLessThanOrEqual(300)
    expect(added(600, [body(lines(100))], false).text.length).toBeGreaterThan(500)
  })

  it('leaves room for the comment after the issue body', () => {
    const { text } = added(600, [body(lines(100)), { ...body('The comment'), label: 'Comment:' }], false)
    expect(text).toContain('Comment:\n```markdown\nThe comment\n```\n')
  })

  it('says a body was left out when not even its first line fits', () => {
    expect(added(180, [body('x'.repeat(500))], false)).toEqual({
      text: '\nBody, as written by its author:\n… left out to stay within the context limit (1 line).\n',
      bodiesCut: 1
    })
  })
})
