import { describe, expect, it } from 'vitest'
import { characterLimit, createBudget, linesThatFit } from '../../../src/context/budget.ts'

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
