import { describe, expect, it } from 'vitest'
import { cancelGraceMs, faultDelay, GROWTH, pollDelay } from '../../../src/wait/retry.ts'

const options = { pollIntervalMs: 5000, maxPollIntervalMs: 30_000 }
const noJitter = (): number => 0
const fullJitter = (): number => 0.999

describe('pollDelay', () => {
  it('waits poll-interval at first', () => {
    expect(pollDelay(0, options, noJitter)).toBe(5000)
    expect(pollDelay(20_000, options, noJitter)).toBe(5000)
  })

  it('grows with the time already waited, up to max-poll-interval', () => {
    expect(pollDelay(60_000, options, noJitter)).toBe(60_000 * GROWTH)
    expect(pollDelay(10 * 60_000, options, noJitter)).toBe(30_000)
  })

  it('jitters only downward, by at most 10%', () => {
    expect(pollDelay(10 * 60_000, options, fullJitter)).toBeLessThan(30_000)
    expect(pollDelay(10 * 60_000, options, fullJitter)).toBeGreaterThanOrEqual(27_000)
  })
})

describe('faultDelay', () => {
  it('doubles with each fault in a row, capped by max-poll-interval', () => {
    expect([1, 2, 3, 4, 5, 50].map((n) => faultDelay(n, options, noJitter))).toEqual([
      5000, 10_000, 20_000, 30_000, 30_000, 30_000
    ])
  })

  it('spreads retries over the upper half of the delay', () => {
    expect(faultDelay(3, options, fullJitter)).toBeGreaterThanOrEqual(10_000)
    expect(faultDelay(3, options, fullJitter)).toBeLessThan(20_000)
  })
})

// The runner cancels with SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that. The end-to-end tests see
// a cancelled step end with its outputs and summary written, however busy the machine; this is how soon it must.
describe('cancelGraceMs', () => {
  it("ends a cancelled step within the runner's patience, and within 2.5 s when it has no comment to edit", () => {
    expect(cancelGraceMs(true)).toBeLessThan(7500)
    expect(cancelGraceMs(false)).toBeLessThan(2500)
  })
})
