// The preview phase on a simulated clock: what is triggered again and when, and how the build's end is told.
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import { simulatedClock } from '../../../sim/simulated-clock.ts'
import { parseJob } from '../../../src/admin-api/agent-job.ts'
import type { BuildPoll, TriggerResult } from '../../../src/admin-api/preview-answers.ts'
import { buildPreview, previewPlan } from '../../../src/wait/preview.ts'

const SETTINGS = settingsOf({ 'request-timeout': '30s', 'poll-interval': '5s', 'max-poll-interval': '30s' })
const TRIGGERED: TriggerResult = { kind: 'triggered', statusId: 'st_1', previewUrl: 'https://acme-x.mintlify.app/' }
const build = (status: string): BuildPoll => ({ kind: 'build', build: { status, summary: undefined, logs: [] } })

function job(body: Record<string, unknown>) {
  const parsed = parseJob({ id: 'job-1', ...body }, { jobId: 'job-1', githubHosts: new Set(['github.com']) })
  return parsed.kind === 'job' ? parsed.job : undefined
}

describe('previewPlan', () => {
  const withBranch = job({
    status: 'completed',
    prLink: 'https://github.com/acme/docs/pull/1',
    source: { ref: 'mintlify/x' }
  })
  it.each([
    ['completed', withBranch, { kind: 'build', branch: 'mintlify/x' }],
    [
      'completed',
      job({ status: 'completed', prLink: null, source: { ref: 'mintlify/x' } }),
      { kind: 'none', reason: 'the agent opened no pull request, so there is nothing to preview' }
    ],
    [
      'completed',
      job({ status: 'completed', prLink: 'https://github.com/acme/docs/pull/1', source: { ref: null } }),
      { kind: 'none', reason: 'the API gave no branch for the job (source.ref)' }
    ],
    ['failed', withBranch, { kind: 'none', reason: 'the job ended failed, so there is nothing to preview' }],
    ['timeout', withBranch, { kind: 'none', reason: 'the job ended timeout, so there is nothing to preview' }]
  ] as const)('a job that ended %s: %j', (outcome, ended, plan) => {
    expect(previewPlan(outcome, ended)).toEqual(plan)
  })
})

/** Runs the phase with these trigger answers and build reads in turn; records when each request was made. */
async function phase(triggers: TriggerResult[], reads: BuildPoll[], deadline = 600_000) {
  const clock = { ...simulatedClock(() => 0), cancelled: () => false }
  const sent: number[] = []
  const polled: number[] = []
  const told: (string | undefined)[] = []
  const outcome = await buildPreview('mintlify/x', SETTINGS, {
    api: {
      triggerPreview: () =>
        Promise.resolve(triggers[Math.min(sent.push(clock.now()) - 1, triggers.length - 1)] ?? TRIGGERED),
      readPreviewBuild: () =>
        Promise.resolve(reads[Math.min(polled.push(clock.now()) - 1, reads.length - 1)] ?? build('success'))
    },
    deadline,
    clock,
    log: () => undefined,
    building: (url: string | undefined) => told.push(url)
  })
  return { outcome, sent, polled, told }
}

describe('buildPreview', () => {
  it('triggers once, tells the address at once, and follows the build to its end', async () => {
    const { outcome, sent, polled, told } = await phase(
      [TRIGGERED],
      [build('queued'), build('in_progress'), build('success')]
    )
    expect(outcome).toMatchObject({ kind: 'success', url: 'https://acme-x.mintlify.app/' })
    expect(sent).toEqual([0])
    expect(told).toEqual(['https://acme-x.mintlify.app/'])
    expect(polled).toEqual([0, 5000, 10_000])
  })

  it('triggers again after a fault, no sooner than Retry-After, and never once it was answered', async () => {
    const limited: TriggerResult = {
      kind: 'transient',
      reason: 'rate limited (HTTP 429)',
      rateLimited: true,
      retryAfterMs: 40_000
    }
    const { sent } = await phase([{ kind: 'transient', reason: 'HTTP 502' }, limited, TRIGGERED], [build('success')])
    expect(sent).toEqual([0, 5000, 45_000])
  })

  it('gives up triggering when the next try would pass the deadline', async () => {
    const limited: TriggerResult = {
      kind: 'transient',
      reason: 'rate limited (HTTP 429)',
      rateLimited: true,
      retryAfterMs: 120_000
    }
    const { outcome, sent } = await phase([limited], [], 60_000)
    expect(sent).toEqual([0])
    expect(outcome).toMatchObject({
      kind: 'error',
      reason: expect.stringContaining('Mintlify allows 5 preview deployments a minute') as string
    })
  })

  it('reads a failed build as failure, with its summary', async () => {
    const failed: BuildPoll = { kind: 'build', build: { status: 'failure', summary: '1 broken link', logs: ['x'] } }
    expect((await phase([TRIGGERED], [failed])).outcome).toMatchObject({
      kind: 'failure',
      build: { summary: '1 broken link' }
    })
  })

  it('ends as building when the deadline passes, keeping the address', async () => {
    const { outcome } = await phase([TRIGGERED], [build('in_progress')], 60_000)
    expect(outcome).toEqual({
      kind: 'building',
      reason: 'it was still in_progress when the timeout ran out',
      url: 'https://acme-x.mintlify.app/'
    })
  })

  it('says the build status was never read, rather than still queued, when every read failed', async () => {
    const { outcome } = await phase([TRIGGERED], [{ kind: 'transient', reason: 'HTTP 502' }], 60_000)
    expect(outcome).toMatchObject({
      kind: 'building',
      reason: 'its build status could not be read before the timeout ran out (HTTP 502)'
    })
  })

  it('retries a build read that failed, with growing waits', async () => {
    const { polled, outcome } = await phase(
      [TRIGGERED],
      [{ kind: 'transient', reason: 'HTTP 502' }, { kind: 'transient', reason: 'HTTP 502' }, build('success')]
    )
    expect(outcome.kind).toBe('success')
    expect(polled).toEqual([0, 5000, 15_000])
  })

  it('waits out a build status not found for 30 s, then says it was lost, keeping the address', async () => {
    const notFound: BuildPoll = { kind: 'transient', reason: 'HTTP 404: Not found', notFound: true }
    const lost = await phase([TRIGGERED], [notFound])
    expect(lost.outcome).toEqual({
      kind: 'error',
      reason: 'its build status was not found, and not read since, for 35s (last: HTTP 404: Not found)',
      url: 'https://acme-x.mintlify.app/'
    })
    expect(lost.polled).toEqual([0, 5000, 15_000, 35_000])
    const found = await phase([TRIGGERED], [notFound, notFound, notFound, build('success')])
    expect(found.outcome.kind).toBe('success')
  })

  it('keeps counting the 30 s of a build status not found through the other faults in between', async () => {
    const notFound: BuildPoll = { kind: 'transient', reason: 'HTTP 404: Not found', notFound: true }
    const unavailable: BuildPoll = { kind: 'transient', reason: 'HTTP 503' }
    const flapping = await phase([TRIGGERED], [notFound, unavailable, notFound, unavailable, notFound])
    expect(flapping.outcome).toMatchObject({
      kind: 'error',
      reason: 'its build status was not found, and not read since, for 35s (last: HTTP 503)'
    })
    expect(flapping.polled).toEqual([0, 5000, 15_000, 35_000])
  })

  it.each([
    [{ kind: 'unavailable', reason: 'HTTP 403: no previews' } as const, 'unavailable'],
    [{ kind: 'refused', reason: 'HTTP 400: branch is required' } as const, 'error']
  ])('stops at once on %j', async (answer, kind) => {
    const { outcome, sent, polled } = await phase([answer], [])
    expect(outcome.kind).toBe(kind)
    expect(sent).toHaveLength(1)
    expect(polled).toHaveLength(0)
  })
})
