// Sending a request that changes something, on a simulated clock: what is sent again, when, and what each failure
// says.
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import { simulatedClock } from '../../../sim/simulated-clock.ts'
import type { SubmitResult } from '../../../src/admin-api/job-answers.ts'
import { submit } from '../../../src/decide/send.ts'

const WORDING = {
  verb: 'start the agent job',
  gerund: 'Starting the agent job',
  lookFor: 'a new agent job in project "docs"'
}
const ACCEPTED: SubmitResult = { kind: 'accepted', jobId: 'job-1', job: undefined }

/** Sends with these answers in turn; records when each attempt was made. */
async function send(answers: SubmitResult[], deadline = 600_000, cancelAfter = Infinity) {
  const clock = { ...simulatedClock(() => 0), cancelled: () => attempts.length >= cancelAfter }
  const attempts: number[] = []
  const log: string[] = []
  const sent = await submit({
    send: () => {
      attempts.push(clock.now())
      return Promise.resolve(answers[Math.min(attempts.length - 1, answers.length - 1)] ?? ACCEPTED)
    },
    settings: settingsOf({ 'request-timeout': '30s', 'poll-interval': '5s', 'max-poll-interval': '30s' }),
    wording: WORDING,
    deadline,
    clock,
    log: (line) => log.push(line)
  })
  return { sent, attempts, log }
}

const RATE_LIMITED: SubmitResult = { kind: 'not sent', reason: 'rate limited (HTTP 429)', rateLimited: true }

describe('submit', () => {
  it('sends once when the API answers', async () => {
    const { sent, attempts } = await send([ACCEPTED])
    expect(sent.kind).toBe('accepted')
    expect(attempts).toEqual([0])
  })

  it('sends again, with growing waits, only what the API surely did not act on', async () => {
    const refused: SubmitResult = { kind: 'not sent', reason: 'connection refused (ECONNREFUSED)' }
    const { sent, attempts, log } = await send([refused, refused, ACCEPTED])
    expect(sent.kind).toBe('accepted')
    expect(attempts).toEqual([0, 5000, 15_000])
    expect(log[0]).toBe(
      'Could not start the agent job: connection refused (ECONNREFUSED). The API surely did not act on it, so it is sent again in 5s.'
    )
  })

  it('tries a base-url that has never answered for a minute, not to the deadline, then names it', async () => {
    const unreached: SubmitResult = {
      kind: 'not sent',
      reason: 'connection refused (ECONNREFUSED)',
      unreached: 'connection refused (ECONNREFUSED)'
    }
    const { sent, attempts } = await send([unreached], 30 * 60_000)
    expect(sent.kind).toBe('error')
    expect(sent.kind === 'error' && sent.reason).toMatch(
      /^Could not start the agent job: base-url \(https:\/\/api\.mintlify\.com\/\) could not be reached for 1m( \d+s)?, and has not answered once: connection refused \(ECONNREFUSED\)\. .* Nothing was started\.$/
    )
    expect(attempts.at(-1)).toBeGreaterThanOrEqual(60_000)
    expect(attempts.at(-1)).toBeLessThan(120_000)
  })

  it('never sooner than Retry-After, and names the rate limit', async () => {
    const { attempts, log } = await send([{ ...RATE_LIMITED, retryAfterMs: 20_000 }, ACCEPTED])
    expect(attempts).toEqual([0, 20_000])
    expect(log[0]).toContain('Mintlify allows 100 agent job starts and follow-ups an hour per project.')
  })

  it('backs off as after any fault when a 429 asks for no wait at all', async () => {
    const now = { ...RATE_LIMITED, retryAfterMs: 0 }
    const { sent, attempts } = await send([now, now, ACCEPTED])
    expect(sent.kind).toBe('accepted')
    expect(attempts).toEqual([0, 5000, 15_000])
  })

  it.each([
    [
      { kind: 'unsure', reason: 'HTTP 502' },
      'unsure',
      'Starting the agent job may or may not have worked: HTTP 502. It is not sent again, so that nothing runs twice: look for a new agent job in project "docs" on the Mintlify dashboard before you run this step again.'
    ],
    [
      { kind: 'refused', reason: 'The API refused to start the agent job (HTTP 400: bad).' },
      'error',
      'The API refused to start the agent job (HTTP 400: bad). Nothing was started.'
    ],
    [
      { kind: 'cancelled' },
      'cancelled',
      'Cancelled while trying to start the agent job: it may or may not have reached the API; look for a new agent job in project "docs" on the Mintlify dashboard.'
    ]
  ] as const)('sends nothing again after %j, and says why (%s)', async (result, kind, reason) => {
    const { sent, attempts } = await send([result])
    expect(attempts).toHaveLength(1)
    expect(sent).toMatchObject({ kind, reason })
  })

  it('ends rate-limited when the quota resets past the deadline, saying when and that nothing was started', async () => {
    const { sent, attempts } = await send([{ ...RATE_LIMITED, retryAfterMs: 120_000 }], 60_000)
    expect(attempts).toEqual([0])
    expect(sent).toEqual({
      kind: 'rate-limited',
      reason:
        'Could not start the agent job: rate limited (HTTP 429); it asked to wait 2m (Retry-After), past the timeout (1 attempt). Mintlify allows 100 agent job starts and follow-ups an hour per project. The quota resets at 00:02 UTC. The docs were not updated: nothing was started.'
    })
  })

  it('gives up with an error when a fault other than the quota outlasts the deadline', async () => {
    const refused: SubmitResult = { kind: 'not sent', reason: 'connection refused (ECONNREFUSED)' }
    const { sent } = await send([refused], 4000)
    expect(sent).toEqual({
      kind: 'error',
      reason:
        'Could not start the agent job: connection refused (ECONNREFUSED), past the timeout (1 attempt). Nothing was started.'
    })
  })

  it('stops after a cancel during the wait, knowing nothing was sent', async () => {
    const { sent, attempts } = await send([RATE_LIMITED], 600_000, 1)
    expect(attempts).toHaveLength(1)
    expect(sent).toEqual({
      kind: 'cancelled',
      reason: 'Cancelled before trying to start the agent job again; nothing was started.',
      maybeSent: false
    })
  })
})
