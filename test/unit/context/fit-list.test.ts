import { describe, expect, it } from 'vitest'
import { createBudget } from '../../../src/context/budget.ts'
import { addList, type ListPlan } from '../../../src/context/fit-list.ts'
import { seededRandom } from './seeded-random.ts'

const plan = (items: string[], alreadyLeftOut = 0): ListPlan => ({
  heading: '### Files',
  items,
  alreadyLeftOut,
  leftOutNote: (count) => `- … ${count} more left out`
})

function fitted(limit: number, list: ListPlan): { text: string; listed: number; cut: boolean } {
  const budget = createBudget(limit)
  return { ...addList(budget, list), text: budget.text() }
}

describe('addList', () => {
  it('lists every item under its heading when they fit', () => {
    expect(fitted(100, plan(['- a', '- b']))).toEqual({ text: '\n### Files\n- a\n- b\n', listed: 2, cut: false })
  })

  it('cuts the list with a line saying how many entries were left out', () => {
    const list = plan(['- aaaa', '- bbbb', '- cccc', '- dddd'])
    expect(fitted(45, list)).toEqual({
      text: '\n### Files\n- aaaa\n- bbbb\n- … 2 more left out\n',
      listed: 2,
      cut: true
    })
  })

  it('counts the entries the plan already left out in the note', () => {
    expect(fitted(100, plan(['- a'], 249))).toEqual({
      text: '\n### Files\n- a\n- … 249 more left out\n',
      listed: 1,
      cut: false
    })
    expect(fitted(35, plan(['- aaaaaaaaaaaa'], 249)).text).toBe('\n### Files\n- … 250 more left out\n')
  })

  it('adds nothing when not even the heading and the note fit', () => {
    expect(fitted(15, plan(['- a', '- b']))).toEqual({ text: '', listed: 0, cut: true })
  })

  it('continues the line before it without a heading', () => {
    const budget = createBudget(100)
    addList(budget, { ...plan(['- a']), heading: undefined })
    expect(budget.text()).toBe('- a\n')
  })

  it('always has room for its note once an item is listed, and stays within the budget', () => {
    const random = seededRandom(99)
    for (let round = 0; round < 2000; round += 1) {
      const items = Array.from({ length: Math.floor(random() * 30) }, () => `- ${'x'.repeat(random() * 40)}`)
      const limit = Math.floor(random() * 600)
      const { text, listed, cut } = fitted(limit, plan(items, Math.floor(random() * 3) * 1000))
      expect(text.length).toBeLessThanOrEqual(limit)
      if (cut && listed > 0) expect(text).toMatch(/- … \d+ more left out\n$/)
      expect(text.split('\n').filter((line) => line.startsWith('- x') || line === '- ')).toHaveLength(listed)
    }
  })
})
