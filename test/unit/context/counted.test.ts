import { describe, expect, it } from 'vitest'
import { counted, formatCount } from '../../../src/context/counted.ts'

describe('counted', () => {
  it.each([
    [0, 'file', undefined, '0 files'],
    [1, 'file', undefined, '1 file'],
    [2, 'body', 'bodies', '2 bodies'],
    [12345, 'line', undefined, '12,345 lines']
  ])('counts %j as %j', (count, one, many, expected) => {
    expect(counted(count, one, many)).toBe(expected)
  })

  it('groups thousands', () => {
    expect(formatCount(20000)).toBe('20,000')
  })
})
