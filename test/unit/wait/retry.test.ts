import { describe, expect, it } from 'vitest'
import { simulatedClock } from '../../../sim/simulated-clock.ts'
import {
  cancelGraceMs,
  faultDelay,
  faultLog,
  GROWTH,
  pollDelay,
  REPEATS_TOLD_EVERY_MS
} from '../../../src/wait/retry.ts'

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

describe('faultLog', () => {
  function told() {
    const clock = simulatedClock()
    const lines: string[] = []
    const faults = faultLog((line) => lines.push(line), clock.now)
    /** The same fault each `everyMs` for `count` tries, as a retry loop meets it. */
    const repeat = (reason: string, count: number, everyMs = 1000): void => {
      for (let i = 0; i < count; i++) {
        faults.fault(reason, `Poll failed: ${reason} (${i + 1} in a row)`)
        clock.advance(everyMs)
      }
    }
    return { clock, lines, faults, repeat }
  }

  it('tells a fault once, and how many times it repeated when the faults end', () => {
    const { lines, faults, repeat } = told()
    repeat('connection refused', 50)
    faults.end()
    expect(lines).toEqual([
      'Poll failed: connection refused (1 in a row)',
      'Failed the same way 49 more times in 50s: connection refused'
    ])
  })

  it('tells a fault met 80 times a minute for two minutes in three lines: its count once a minute while it lasts', () => {
    const { lines, faults, repeat } = told()
    repeat('connection refused', 160, 750)
    faults.end()
    expect(lines).toEqual([
      'Poll failed: connection refused (1 in a row)',
      'Failed the same way 80 more times in 1m: connection refused',
      'Failed the same way 79 more times in 1m: connection refused'
    ])
    expect(REPEATS_TOLD_EVERY_MS).toBe(60_000)
  })

  it('takes faults that differ only by a request or trace id for one, but not two statuses', () => {
    const { lines, faults } = told()
    const ids = ['1000', '1001', '7f3a9c2e-1b4d-4e8f-9a6b-2c5d8e1f0a3b', '9f8e7d6c5b4a']
    for (const id of ids) faults.fault(`HTTP 503: busy (request ${id})`, `Poll failed: HTTP 503: busy (request ${id})`)
    faults.fault('HTTP 502: busy (request 1004)', 'Poll failed: HTTP 502: busy (request 1004)')
    faults.end()
    expect(lines).toEqual([
      'Poll failed: HTTP 503: busy (request 1000)',
      'Failed the same way 3 more times in 0ms: HTTP 503: busy (request 1000)',
      'Poll failed: HTTP 502: busy (request 1004)'
    ])
  })

  it('tells another fault at once, after the count of the one before', () => {
    const { lines, faults, repeat } = told()
    repeat('HTTP 503', 3)
    repeat('connection reset', 1)
    repeat('HTTP 503', 1)
    faults.end()
    expect(lines).toEqual([
      'Poll failed: HTTP 503 (1 in a row)',
      'Failed the same way 2 more times in 3s: HTTP 503',
      'Poll failed: connection reset (1 in a row)',
      'Poll failed: HTTP 503 (1 in a row)'
    ])
  })

  it('tells a fault again after an answer came between, and says nothing at the end of none', () => {
    const { lines, faults, repeat } = told()
    faults.end()
    repeat('HTTP 503', 1)
    faults.end()
    repeat('HTTP 503', 1)
    faults.end()
    expect(lines).toEqual(['Poll failed: HTTP 503 (1 in a row)', 'Poll failed: HTTP 503 (1 in a row)'])
  })
})
