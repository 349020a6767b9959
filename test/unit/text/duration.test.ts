import { describe, expect, it } from 'vitest'
import { formatDuration, parseDuration } from '../../../src/text/duration.ts'

describe('parseDuration', () => {
  it.each([
    ['500ms', 500],
    ['10s', 10_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['1.5s', 1500],
    [' 2M ', 120_000],
    ['45', 45_000],
    ['0.25', 250]
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms)
  })

  it.each(['', 'soon', '10 s', '-5s', '5d', 'ms', '1e3', '5s5', 'Infinity'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined()
  })
})

describe('formatDuration', () => {
  it.each([
    [850, '850ms'],
    [12_000, '12s'],
    [245_000, '4m 5s'],
    [300_000, '5m'],
    [3_720_000, '1h 2m'],
    [7_200_000, '2h']
  ])('renders %d ms as %j', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })
})
