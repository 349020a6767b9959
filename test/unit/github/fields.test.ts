import { describe, expect, it } from 'vitest'
import {
  countOf,
  fieldsAt,
  fieldsOf,
  firstTextOf,
  hasFields,
  httpUrlOf,
  isTrue,
  listOf,
  mayHaveLanded,
  positiveIntegerOf,
  textOf
} from '../../../src/github/fields.ts'

const WRONG_TYPES = [undefined, null, 0, 1, true, 'text', [], [1], {}, { a: 1 }] as const

describe('payload fields', () => {
  it.each(WRONG_TYPES)('read %j as the empty value of the type asked for, unless it is one', (value) => {
    expect(textOf(value)).toBe(typeof value === 'string' ? value : '')
    expect(listOf(value)).toEqual(Array.isArray(value) ? value : [])
    expect(isTrue(value)).toBe(value === true)
    expect(fieldsOf(value)).toEqual(typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {})
  })

  it('reads nested fields through anything', () => {
    expect(fieldsAt({ a: { b: { c: 1 } } }, 'a', 'b')).toEqual({ c: 1 })
    expect(fieldsAt({ a: 'x' }, 'a', 'b')).toEqual({})
    expect(fieldsAt(null, 'a')).toEqual({})
    expect(hasFields({ a: 1 })).toBe(true)
    expect(hasFields({})).toBe(false)
  })

  it.each([
    [12, 12, 12],
    [0, 0, undefined],
    [-1, undefined, undefined],
    [1.5, undefined, undefined],
    [2 ** 60, undefined, undefined],
    [Number.NaN, undefined, undefined],
    ['12', undefined, undefined],
    [null, undefined, undefined]
  ])('reads %j as the count %j and the positive integer %j', (value, count, positive) => {
    expect(countOf(value)).toBe(count)
    expect(positiveIntegerOf(value)).toBe(positive)
  })

  it('takes the first non-empty text', () => {
    expect(firstTextOf(undefined, '', 3, 'login', 'name')).toBe('login')
    expect(firstTextOf(null, '')).toBe('')
  })

  it.each([
    ['https://github.com/acme/widgets/pull/1', 'https://github.com/acme/widgets/pull/1'],
    ['http://ghes.corp/acme/widgets/pull/1', 'http://ghes.corp/acme/widgets/pull/1'],
    ['javascript:alert(1)', ''],
    ['file:///etc/passwd', ''],
    ['not a url', ''],
    [42, '']
  ])('reads the URL %j as %j', (value, url) => {
    expect(httpUrlOf(value)).toBe(url)
  })
})

describe('mayHaveLanded', () => {
  const answered = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status })
  it.each([
    ['a 502 (GitHub may have made it first)', answered(502), true],
    ['a 500', answered(500), true],
    ['no answer at all (a reset, a timeout)', new Error('socket hang up'), true],
    ['a 422: refused, nothing made', answered(422), false],
    ['a 403: refused, nothing made', answered(403), false],
    ['a 404', answered(404), false]
  ])('%s: %s', (_what, error, landed) => {
    expect(mayHaveLanded(error)).toBe(landed)
  })
})
