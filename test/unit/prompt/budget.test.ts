import { describe, expect, it } from 'vitest'
import { seededRandom } from '../support/seeded-random.ts'
import {
  addList,
  characterLimit,
  createBudget,
  fencedPiece,
  type FencedPiecePlan,
  linesThatFit,
  type ListPlan
} from '../../../src/prompt/budget.ts'

describe('createBudget', () => {
  it('adds a piece only if it fits whole', () => {
    const budget = createBudget(10)
    expect(budget.add('123456')).toBe(true)
    expect(budget.add('12345')).toBe(false)
    expect(budget.add('1234')).toBe(true)
    expect(budget.remaining()).toBe(0)
    expect(budget.add('')).toBe(true)
    expect(budget.text()).toBe('1234561234')
  })

  it('holds nothing with no room', () => {
    const budget = createBudget(0)
    expect(budget.add('x')).toBe(false)
    expect(budget.text()).toBe('')
  })
})

describe('characterLimit', () => {
  it.each([
    [20_000, 20_000],
    [200.9, 200],
    [0, 0],
    [-5, 0],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 0]
  ])('reads %j as %j characters', (limit, characters) => {
    expect(characterLimit(limit)).toBe(characters)
  })
})

describe('linesThatFit', () => {
  it.each([
    [['ab', 'cd'], 6, 2],
    [['ab', 'cd'], 5, 1],
    [['ab', 'cd'], 3, 1],
    [['ab', 'cd'], 2, 0],
    [[], 0, 0]
  ])('fits %j in %j characters: %j lines', (lines, room, count) => {
    expect(linesThatFit(lines, room)).toBe(count)
  })
})

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

const content = [
  'first line of the body',
  'second line',
  'third line, which goes on for a while',
  'fourth line, which goes on too'
].join('\n')
const piecePlan = (room: number): FencedPiecePlan => ({
  label: 'Body:',
  content,
  info: 'markdown',
  wholeRoom: room,
  cutRoom: room,
  cutNote: (lines) => `… ${lines} more lines left out.`
})
const whole = ['', 'Body:', '```markdown', content, '```', ''].join('\n')

describe('fencedPiece', () => {
  it('is whole when it fits', () => {
    expect(fencedPiece(piecePlan(whole.length))).toEqual({ kind: 'whole', text: whole })
  })

  it('is cut at a line boundary, closed, with a note of the lines left out', () => {
    const cut = '\nBody:\n```markdown\nfirst line of the body\nsecond line\n```\n… 2 more lines left out.\n'
    expect(fencedPiece(piecePlan(cut.length))).toEqual({ kind: 'cut', text: cut, linesLeftOut: 2 })
    expect(fencedPiece(piecePlan(cut.length + 16))).toMatchObject({ kind: 'cut', linesLeftOut: 2 })
  })

  it('is none when not even its first line fits with the note', () => {
    expect(fencedPiece(piecePlan(60))).toEqual({ kind: 'none', lines: 4 })
  })

  it('keeps room for a note that is longer when fewer lines are left out', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `l${i}`).join('\n')
    const note = (left: number): string => (left < 10 ? `… only ${left} more lines, a longer note` : `… ${left}`)
    for (let room = 0; room < 120; room += 1) {
      const piece = fencedPiece({ ...piecePlan(room), content: lines, cutNote: note })
      if (piece.kind !== 'none') expect(piece.text.length).toBeLessThanOrEqual(room)
    }
  })

  it('is cut when it fits only in the room for a cut piece', () => {
    const piece = fencedPiece({ ...piecePlan(200), wholeRoom: whole.length - 1 })
    expect(piece).toMatchObject({ kind: 'cut', linesLeftOut: 1 })
  })
})
