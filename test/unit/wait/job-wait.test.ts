import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import { simulatedClock } from '../../../sim/simulated-clock.ts'
import { type AgentJob, parseJob } from '../../../src/admin-api/agent-job.ts'
import type { PollResult } from '../../../src/admin-api/job-answers.ts'
import { type PollEvent, waitForJob as waitOn, type WaitOptions } from '../../../src/wait/job-wait.ts'
import type { Clock } from '../../../src/wait/retry.ts'

const OPTIONS = { pollIntervalMs: 5000, maxPollIntervalMs: 30_000, timeoutMs: 30 * 60_000, requestTimeoutMs: 30_000 }

type TestWait = Omit<WaitOptions, 'settings' | 'startedAt' | 'deadline'> & Partial<typeof OPTIONS> & { clock: Clock }

/** Waits from the clock's time now, with these intervals and this timeout (OPTIONS for those not given). */
function waitForJob(options: TestWait) {
  const { pollIntervalMs, maxPollIntervalMs, timeoutMs, requestTimeoutMs, ...rest } = { ...OPTIONS, ...options }
  const settings = settingsOf({
    'base-url': 'http://127.0.0.1',
    'poll-interval': `${pollIntervalMs}ms`,
    'max-poll-interval': `${maxPollIntervalMs}ms`,
    'request-timeout': `${requestTimeoutMs}ms`
  })
  const startedAt = options.clock.now()
  return waitOn({ ...rest, settings, startedAt, deadline: startedAt + timeoutMs })
}

function job(status: string, prLink: string | null = null): AgentJob {
  const parsed = parseJob({ id: 'j', status, prLink }, { jobId: 'j', githubHosts: new Set(['github.com']) })
  if (parsed.kind === 'not a job') throw new Error(parsed.reason)
  return parsed.job
}
const active: PollResult = { kind: 'job', job: job('active') }

/** Answers by the simulated time of each poll; records when polls happened and their request timeouts. */
function scripted(clock: { now(): number }, answer: (atMs: number, index: number) => PollResult) {
  const polls: { at: number; timeoutMs: number }[] = []
  const fetchJob = (timeoutMs: number): Promise<PollResult> => {
    polls.push({ at: clock.now(), timeoutMs })
    return Promise.resolve(answer(clock.now(), polls.length - 1))
  }
  return { polls, fetchJob }
}

function endsAt(
  endMs: number,
  final: PollResult = { kind: 'job', job: job('completed', 'https://github.com/a/b/pull/1') }
) {
  return (at: number): PollResult => (at >= endMs ? final : active)
}

describe('waitForJob', () => {
  it('polls until the job completes, then reports it with the number of polls', async () => {
    const clock = simulatedClock(() => 0)
    const { polls, fetchJob } = scripted(clock, endsAt(12_000))
    const result = await waitForJob({ fetchJob, clock })
    expect(result).toMatchObject({ kind: 'completed', polls: 4, elapsedMs: 15_000, faults: 0 })
    expect(result.job?.pr).toMatchObject({ kind: 'link', url: new URL('https://github.com/a/b/pull/1') })
    expect(polls.map((p) => p.at)).toEqual([0, 5000, 10_000, 15_000])
  })

  it.each(['failed', 'archived'])('stops at %s', async (status) => {
    const clock = simulatedClock()
    const { fetchJob } = scripted(clock, endsAt(0, { kind: 'job', job: job(status) }))
    expect(await waitForJob({ fetchJob, clock })).toMatchObject({ kind: status, polls: 1 })
  })

  it('keeps polling through a status the contract does not list', async () => {
    const clock = simulatedClock()
    const { fetchJob } = scripted(clock, (_, i) =>
      i < 2 ? { kind: 'job', job: job('queued') } : { kind: 'job', job: job('completed') }
    )
    expect(await waitForJob({ fetchJob, clock })).toMatchObject({ kind: 'completed', polls: 3 })
  })

  it('spaces polls further apart as the wait goes on, never beyond max-poll-interval', async () => {
    const clock = simulatedClock()
    const { polls, fetchJob } = scripted(clock, endsAt(20 * 60_000))
    await waitForJob({ fetchJob, clock })
    const gaps = polls.slice(1).map((p, i) => p.at - (polls[i]?.at ?? 0))
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4500)
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000)
    expect(gaps.at(-1)).toBeGreaterThan(gaps[0] ?? Infinity)
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThanOrEqual((gaps[i - 1] ?? 0) * 0.85)
  })

  it.each([30_000, 60_000, 5 * 60_000, 30 * 60_000 - 1])(
    'notices the end of a %d ms job within max(poll-interval, a fifth of its run), never later than max-poll-interval',
    async (durationMs) => {
      const clock = simulatedClock()
      const { fetchJob } = scripted(clock, endsAt(durationMs))
      const result = await waitForJob({ fetchJob, clock })
      const lag = result.elapsedMs - durationMs
      expect(result.kind).toBe('completed')
      expect(lag).toBeLessThanOrEqual(
        Math.min(OPTIONS.maxPollIntervalMs, Math.max(OPTIONS.pollIntervalMs, 0.2 * durationMs))
      )
    }
  )

  it('times out at the deadline with a last poll there, reporting the job as still active', async () => {
    const clock = simulatedClock()
    const { polls, fetchJob } = scripted(clock, () => active)
    const result = await waitForJob({ timeoutMs: 60_000, fetchJob, clock })
    expect(result).toMatchObject({ kind: 'timeout', elapsedMs: 60_000, lastFault: undefined })
    expect(result.job?.status).toBe('active')
    expect(polls.at(-1)?.at).toBe(60_000)
    expect(polls.at(-1)?.timeoutMs).toBe(1000)
  })

  it('gives no request more time than is left before the deadline', async () => {
    const clock = simulatedClock(() => 0)
    const { polls, fetchJob } = scripted(clock, () => active)
    await waitForJob({ timeoutMs: 42_000, requestTimeoutMs: 30_000, fetchJob, clock })
    expect(polls.map((p) => p.timeoutMs)).toEqual(polls.map((p) => Math.min(30_000, Math.max(42_000 - p.at, 1000))))
    expect(polls.map((p) => p.timeoutMs)).toContain(12_000)
    expect(polls.at(-1)).toEqual({ at: 42_000, timeoutMs: 1000 })
  })

  it('stops at once on a permanent fault', async () => {
    const clock = simulatedClock()
    const { fetchJob } = scripted(clock, () => ({ kind: 'permanent', reason: 'HTTP 401' }))
    expect(await waitForJob({ fetchJob, clock })).toMatchObject({
      kind: 'error',
      reason: 'HTTP 401',
      polls: 1,
      elapsedMs: 0
    })
  })

  it('retries transient faults with growing waits, then reports the job', async () => {
    const clock = simulatedClock(() => 0)
    const { polls, fetchJob } = scripted(clock, (_, i) =>
      i < 4 ? { kind: 'transient', reason: 'HTTP 503', fault: 'server' } : { kind: 'job', job: job('completed') }
    )
    const result = await waitForJob({ fetchJob, clock })
    expect(result).toMatchObject({ kind: 'completed', polls: 5, faults: 4 })
    expect(polls.map((p) => p.at)).toEqual([0, 5000, 15_000, 35_000, 65_000])
  })

  it('waits at least as long as Retry-After asks', async () => {
    const clock = simulatedClock(() => 0)
    const { polls, fetchJob } = scripted(clock, (_, i) =>
      i === 0
        ? { kind: 'transient', reason: 'rate limited (HTTP 429)', fault: 'server', retryAfterMs: 90_000 }
        : { kind: 'job', job: job('completed') }
    )
    await waitForJob({ fetchJob, clock })
    expect(polls.map((p) => p.at)).toEqual([0, 90_000])
  })

  it('stops at once when Retry-After reaches past the deadline', async () => {
    const clock = simulatedClock()
    const { fetchJob } = scripted(clock, () => ({
      kind: 'transient',
      reason: 'rate limited (HTTP 429)',
      fault: 'rate limited',
      retryAfterMs: 3_600_000
    }))
    const result = await waitForJob({ fetchJob, clock })
    expect(result).toMatchObject({ kind: 'timeout', polls: 1, elapsedMs: 0 })
    if (result.kind === 'timeout')
      expect(result.lastFault).toContain('asked to wait 3600s (Retry-After), past the timeout')
  })

  it('reports what kept failing when faults outlast the timeout', async () => {
    const clock = simulatedClock()
    const { polls, fetchJob } = scripted(clock, () => ({
      kind: 'transient',
      reason: 'connection refused (ECONNREFUSED)',
      fault: 'network'
    }))
    const result = await waitForJob({ timeoutMs: 120_000, fetchJob, clock })
    expect(result).toMatchObject({
      kind: 'timeout',
      job: undefined,
      lastFault: 'connection refused (ECONNREFUSED)',
      lastFaultKind: 'network',
      elapsedMs: 120_000
    })
    expect(result.polls).toBe(polls.length)
  })

  it('stops when the host is unknown before the API ever answered, but not after', async () => {
    const notFound: PollResult = {
      kind: 'transient',
      reason: 'host not found (ENOTFOUND)',
      fault: 'network',
      hostNotFound: 'The runner could not resolve the host.'
    }
    const first = simulatedClock()
    const never = scripted(first, () => notFound)
    expect(await waitForJob({ fetchJob: never.fetchJob, clock: first })).toMatchObject({
      kind: 'error',
      reason: 'The runner could not resolve the host.',
      polls: 1
    })

    const second = simulatedClock()
    const flaky = scripted(second, (_, i) =>
      i === 0 ? active : i === 1 ? notFound : { kind: 'job', job: job('completed') }
    )
    expect(await waitForJob({ fetchJob: flaky.fetchJob, clock: second })).toMatchObject({
      kind: 'completed',
      polls: 3,
      faults: 1
    })
  })

  describe('a base-url that has never answered', () => {
    const refused: PollResult = {
      kind: 'transient',
      reason: 'connection refused (ECONNREFUSED)',
      fault: 'network',
      unreached: 'connection refused (ECONNREFUSED)'
    }

    it('is tried for a minute, not for the whole timeout, then named', async () => {
      const clock = simulatedClock(() => 0)
      const { polls, fetchJob } = scripted(clock, () => refused)
      const result = await waitForJob({ fetchJob, clock })
      expect(result).toMatchObject({
        kind: 'error',
        reason: expect.stringMatching(
          /^base-url \(http:\/\/127\.0\.0\.1\/\) could not be reached for 1m( \d+s)?, and has not answered once: connection refused \(ECONNREFUSED\)\./
        ) as string
      })
      expect(clock.now()).toBeGreaterThanOrEqual(60_000)
      expect(clock.now()).toBeLessThan(120_000)
      expect(polls.length).toBeGreaterThan(2)
    })

    it('is named at the timeout when that comes first', async () => {
      const clock = simulatedClock(() => 0)
      const { fetchJob } = scripted(clock, () => refused)
      const result = await waitForJob({ fetchJob, clock, timeoutMs: 20_000 })
      expect(result).toMatchObject({
        kind: 'error',
        reason: expect.stringContaining('base-url (http://127.0.0.1/) could not be reached for 20s') as string
      })
    })

    it('is waited out to the timeout once the API has answered', async () => {
      const clock = simulatedClock(() => 0)
      const { reason, fault } = refused
      const { fetchJob } = scripted(clock, (_, i) => (i === 0 ? active : { kind: 'transient', reason, fault }))
      expect(await waitForJob({ fetchJob, clock })).toMatchObject({ kind: 'timeout', lastFault: reason })
      expect(clock.now()).toBeGreaterThanOrEqual(30 * 60_000)
    })
  })

  it('says a key refused after the job was read stopped working mid-run', async () => {
    const refused: PollResult = { kind: 'permanent', reason: 'refused from the start', midRun: 'stopped mid-run' }
    const first = simulatedClock(() => 0)
    expect(await waitForJob({ fetchJob: scripted(first, () => refused).fetchJob, clock: first })).toMatchObject({
      kind: 'error',
      reason: 'refused from the start'
    })
    const second = simulatedClock(() => 0)
    const later = scripted(second, (_, i) => (i === 0 ? active : refused))
    expect(await waitForJob({ fetchJob: later.fetchJob, clock: second })).toMatchObject({
      kind: 'error',
      reason: 'stopped mid-run'
    })
  })

  it('stops when cancelled, counting only the polls that were answered', async () => {
    const clock = simulatedClock()
    const { fetchJob } = scripted(clock, (_, i) => (i < 3 ? active : { kind: 'cancelled' }))
    expect(await waitForJob({ fetchJob, clock })).toMatchObject({ kind: 'cancelled', polls: 3 })
  })

  it('reports each status change once, and a heartbeat while the job stays active', async () => {
    const clock = simulatedClock()
    const { fetchJob } = scripted(clock, endsAt(5 * 60_000))
    const events: PollEvent[] = []
    await waitForJob({ fetchJob, clock, onEvent: (event) => events.push(event) })
    const statuses = events.flatMap((e) => (e.kind === 'status' ? [[e.previous, e.job.status]] : []))
    expect(statuses).toEqual([
      [undefined, 'active'],
      ['active', 'completed']
    ])
    const heartbeats = events.filter((e) => e.kind === 'heartbeat').length
    expect(heartbeats).toBeGreaterThanOrEqual(3)
    expect(heartbeats).toBeLessThanOrEqual(5)
  })

  describe('a job this step has just started or followed up', () => {
    const notFound: PollResult = {
      kind: 'not found',
      reason: 'No agent job "j" was found in project "p". Check job-id',
      sinceAccepted: 'The API accepted the request for agent job "j" but then answered HTTP 404 for it.',
      described: 'HTTP 404: Agent job not found'
    }

    it('waits out a 404 for the grace it is given, then reads the job', async () => {
      const clock = simulatedClock(() => 0)
      const { fetchJob } = scripted(clock, (at) => (at < 12_000 ? notFound : { kind: 'job', job: job('completed') }))
      const result = await waitForJob({ fetchJob, clock, notFoundGraceMs: 30_000 })
      expect(result).toMatchObject({ kind: 'completed', faults: 2 })
    })

    it('stops after the grace without sending the user to check job-id', async () => {
      const clock = simulatedClock(() => 0)
      const { fetchJob } = scripted(clock, () => notFound)
      const result = await waitForJob({ fetchJob, clock, notFoundGraceMs: 30_000 })
      expect(result).toMatchObject({ kind: 'error', reason: notFound.sinceAccepted })
      expect(clock.now()).toBeGreaterThanOrEqual(30_000)
    })

    it('stops at the first 404 for a job given by job-id', async () => {
      const clock = simulatedClock(() => 0)
      const { fetchJob } = scripted(clock, () => notFound)
      expect(await waitForJob({ fetchJob, clock })).toMatchObject({
        kind: 'error',
        polls: 1,
        reason: notFound.reason
      })
    })

    it("does not end on a follow-up's lingering finished status, even when its answer held no job", async () => {
      const clock = simulatedClock(() => 0)
      const { polls, fetchJob } = scripted(clock, (_, i) => ({
        kind: 'job',
        job: job(i === 1 ? 'active' : 'completed')
      }))
      const result = await waitForJob({ fetchJob, clock, settleMs: 60_000 })
      expect(result).toMatchObject({ kind: 'completed' })
      expect(polls).toHaveLength(3)
    })
  })
})
