import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../../sim/settings.ts'
import { chooseTarget, decideSingle } from '../../../../src/modes/single/single.ts'
import type { StoredComment as TrackedComment } from '../../../../src/github/comment-store.ts'
import { UNKNOWN_JOB } from '../../../../src/github/tracking-record.ts'
import { fakeSetup, type World } from '../../support/fake-setup.ts'
import { earlierAttemptOf, jobRead, nextRecord, pushEvent, reasonOf, refused, trackedJob } from '../../support/world.ts'

/** Tracking comments, oldest report first, as `listTracked` returns them. */
function tracked(...jobs: [job: string, project?: string][]): TrackedComment[] {
  return jobs.map(([job, project], index) => ({
    id: index + 1,
    url: undefined,
    state: {
      job,
      requests: [{ kind: 'start', run: '1', attempt: 1, prompt: 'h', line: 'p', ...(project ? { project } : {}) }]
    }
  }))
}

describe('chooseTarget', () => {
  it.each([
    ['job-id given: a follow-up to it', { jobId: 'job-7', followUp: false }, [], { kind: 'follow-up', jobId: 'job-7' }],
    [
      'job-id wins over follow-up',
      { jobId: 'job-7', followUp: true },
      tracked(['job-1']),
      { kind: 'follow-up', jobId: 'job-7' }
    ],
    [
      'no job-id, no follow-up: a new job',
      { jobId: undefined, followUp: false },
      tracked(['job-1']),
      { kind: 'start', untracked: false }
    ],
    [
      'follow-up: the job updated last',
      { jobId: undefined, followUp: true },
      tracked(['job-1'], ['job-2']),
      { kind: 'follow-up', jobId: 'job-2' }
    ],
    [
      'follow-up: never a start that may not have made a job',
      { jobId: undefined, followUp: true },
      tracked(['job-1'], [UNKNOWN_JOB]),
      { kind: 'follow-up', jobId: 'job-1' }
    ],
    [
      "follow-up: never another project's job",
      { jobId: undefined, followUp: true },
      tracked(['job-1', 'docs'], ['job-2', 'other']),
      { kind: 'follow-up', jobId: 'job-1' }
    ],
    [
      'follow-up: a marker of a version that recorded no project counts',
      { jobId: undefined, followUp: true },
      tracked(['job-1']),
      { kind: 'follow-up', jobId: 'job-1' }
    ],
    [
      'follow-up with nothing tracked: a new job, said so',
      { jobId: undefined, followUp: true },
      [],
      { kind: 'start', untracked: true }
    ]
  ] as const)('%s', (_, settings, comments, expected) => {
    const inputs = { 'project-id': 'docs', 'job-id': settings.jobId ?? '', 'follow-up': String(settings.followUp) }
    expect(chooseTarget(settingsOf(inputs), comments)).toEqual(expected)
  })
})

/** What `mode: single` decides in this world, and what the stand-ins saw once its comment's writes have landed. */
async function single(world: World) {
  const faked = fakeSetup(world)
  const decision = await decideSingle(faked.setup)
  await decision.comment?.settle()
  const apiCalls = faked.calls.filter((call) => call.startsWith('api '))
  return { ...faked, decision, apiCalls }
}

const PROMPT = 'Document the change'
const COMMENTING = { comment: 'true' }

describe('decideSingle', () => {
  it('waits for job-id alone, sending nothing and asking nothing', async () => {
    const { decision, calls } = await single({ inputs: { prompt: '', 'job-id': 'job-7' } })
    expect(decision).toMatchObject({ kind: 'job', jobId: 'job-7', sent: false, submission: undefined })
    expect(calls).toEqual([])
  })

  it('starts a job with the prompt, recorded on the comment as unsure before it is sent', async () => {
    const { decision, calls, writes, sent } = await single({ inputs: COMMENTING })
    expect(decision).toMatchObject({ kind: 'job', jobId: 'job-101', sent: true, submission: { kind: 'start' } })
    expect(calls.slice(0, 2)).toEqual(['github comment', 'api create'])
    expect(writes[0]?.state.requests).toMatchObject([{ kind: 'start', unsure: true, run: '42' }])
    expect(sent).toEqual([PROMPT])
  })

  it('follows up job-id with the prompt', async () => {
    const { decision, apiCalls } = await single({ inputs: { 'job-id': 'job-7' } })
    expect(decision).toMatchObject({ kind: 'job', jobId: 'job-7', followedUp: true, submission: { kind: 'follow-up' } })
    expect(apiCalls).toEqual(['api follow-up job-7'])
  })

  it('follows up the job tracked on the issue, with follow-up', async () => {
    const { decision, apiCalls } = await single({ inputs: { 'follow-up': 'true' }, tracked: [trackedJob('job-1')] })
    expect(decision).toMatchObject({ kind: 'job', jobId: 'job-1', followedUp: true })
    expect(apiCalls).toEqual(['api follow-up job-1'])
  })

  it('starts a job, and says so, when follow-up finds none tracked', async () => {
    const { decision, apiCalls, log } = await single({ inputs: { 'follow-up': 'true' }, tracked: [] })
    expect(decision).toMatchObject({ kind: 'job', followedUp: false })
    expect(apiCalls).toEqual(['api create'])
    expect(log.info).toContain('No agent job is tracked on issue #12 yet: starting a new one.')
  })

  it('sends nothing with follow-up when the issue cannot be opened', async () => {
    const { decision, calls } = await single({
      inputs: { 'follow-up': 'true' },
      noThread: 'GITHUB_REPOSITORY is not set'
    })
    expect(decision).toEqual({
      kind: 'error',
      reason: 'Could not look for the job to follow up: GITHUB_REPOSITORY is not set. Nothing was sent.'
    })
    expect(calls).toEqual([])
  })

  it('sends nothing, and says to run again or pass job-id, when the comments cannot be listed', async () => {
    const tracked = new Error('GitHub answered HTTP 502.')
    const { decision, apiCalls } = await single({ inputs: { 'follow-up': 'true' }, tracked })
    expect(decision).toEqual({
      kind: 'error',
      reason:
        'Could not look for the job to follow up: GitHub answered HTTP 502. Nothing was sent; run the step again, or pass job-id.'
    })
    expect(apiCalls).toEqual([])
  })

  it("skips the Mintlify agent's own push, sending nothing (loop prevention)", async () => {
    const { decision, apiCalls } = await single({ change: pushEvent('mintlify[bot]') })
    expect(decision).toEqual({
      kind: 'skipped',
      reason: 'the push is by mintlify[bot], the Mintlify agent (loop prevention)'
    })
    expect(apiCalls).toEqual([])
  })

  it('sends nothing once max-jobs-per-hour is reached', async () => {
    const { decision, apiCalls } = await single({ inputs: { 'max-jobs-per-hour': '1' }, startsThisHour: 1 })
    expect(decision.kind).toBe('rate-limited')
    expect(reasonOf(decision)).toMatch(/^max-jobs-per-hour \(1\) is reached: this action started 1 job/)
    expect(apiCalls).toEqual([])
  })

  it('waits on a re-run for the job its earlier attempt started, only reading it', async () => {
    const tracked = [trackedJob('job-1', { requests: [earlierAttemptOf(PROMPT)] })]
    const jobs = { 'job-1': jobRead('job-1', 'active') }
    const { decision, apiCalls } = await single({ inputs: COMMENTING, attempt: 2, tracked, api: { jobs } })
    expect(decision).toMatchObject({ kind: 'job', jobId: 'job-1', sent: false })
    expect(apiCalls).toEqual(['api get job-1'])
  })

  it('ends with the API refusal, and withdraws the record so that a re-run may send it', async () => {
    const { decision, writes } = await single({ inputs: COMMENTING, api: { create: [refused(400)] } })
    expect(decision).toMatchObject({ kind: 'error', refusedWith: 400 })
    expect(reasonOf(decision)).toBe('The API refused (HTTP 400). Nothing was started.')
    expect((await nextRecord(decision, writes))?.requests).toEqual([])
  })
})
