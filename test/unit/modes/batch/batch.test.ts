// The batch on record whose end the record does not say (its run ended first): what a read of its job means.
import { describe, expect, it } from 'vitest'
import { parseJob } from '../../../../src/admin-api/agent-job.ts'
import type { PollResult } from '../../../../src/admin-api/job-answers.ts'
import type { Decision } from '../../../../src/decide/decision.ts'
import type { StoredComment } from '../../../../src/github/comment-store.ts'
import { type BatchPlan, type TrackingState, UNKNOWN_JOB } from '../../../../src/github/tracking-record.ts'
import { decideBatch, judgePendingJob, notifyCovered } from '../../../../src/modes/batch/batch.ts'
import type { WaitResult } from '../../../../src/wait/job-wait.ts'
import { fakeSetup, type HistoryWorld, type World } from '../../support/fake-setup.ts'
import {
  commitOf,
  DOCS_PR,
  jobRead,
  mergedBy,
  nextRecord,
  reasonOf,
  shaOf,
  submission,
  trackedJob
} from '../../support/world.ts'

function read(status: string, prLink: string | null = null): PollResult & { kind: 'job' } {
  const parsed = parseJob({ id: 'job-1', status, prLink }, { jobId: 'job-1', githubHosts: new Set(['github.com']) })
  if (parsed.kind !== 'job') throw new Error(parsed.reason)
  return parsed
}

const PR = 'https://github.com/acme/docs/pull/7'

describe('judgePendingJob', () => {
  it.each([
    ['still running: waited for', read('active'), true, 'follow'],
    ['completed since: this run ends as that batch', read('completed', PR), true, 'follow'],
    ['completed without a pull request: ends as that batch too', read('completed'), true, 'follow'],
    ['completed, with wait: false: noted, and the next batch goes on', read('completed', PR), false, 'noted'],
    ['failed: noted, and its pull requests taken again', read('failed'), true, 'noted'],
    ['archived: noted', read('archived', PR), true, 'noted'],
    ['unreadable: nothing sent', { kind: 'permanent', reason: 'HTTP 410' }, true, 'error'],
    [
      'gone: nothing sent',
      { kind: 'not found', reason: 'x', sinceAccepted: 'y', described: 'HTTP 404' },
      true,
      'error'
    ],
    ['the run cancelled while reading it', { kind: 'cancelled' }, true, 'cancelled']
  ] as const)('%s', (_, answer: PollResult, wait, verdict) => {
    expect(judgePendingJob('job-1', answer, wait).kind).toBe(verdict)
  })

  it('says this run ends as the batch that completed after its run, and that what was merged since waits', () => {
    expect(judgePendingJob('job-1', read('completed', PR), true)).toMatchObject({
      kind: 'follow',
      note: 'The batch before this one completed after its run had ended (agent job "job-1"): this run ends as that batch; what was merged since waits for the next run.'
    })
  })
})

const BATCH = { mode: 'batch' }

/** What `mode: batch` decides in this world, once the comment's writes have landed. */
async function batch(world: World) {
  const faked = fakeSetup({ ...world, inputs: { ...BATCH, ...world.inputs } })
  const decision = await decideBatch(faked.setup)
  await decision.comment?.settle()
  const apiCalls = faked.calls.filter((call) => call.startsWith('api '))
  return { ...faked, decision, apiCalls }
}

/** Commits and pull requests 1 to n, each merged by its own commit. */
function merged(n: number, author?: string): HistoryWorld {
  const numbers = Array.from({ length: n }, (_, index) => index + 1)
  return { commits: numbers.map(commitOf), merged: numbers.map((number) => mergedBy(number, author)) }
}

/** A batch's record on the digest issue: job-9, covering pull request 1 up to commit 1. */
function lastBatch(job = 'job-9', more: Partial<TrackingState> = {}): StoredComment[] {
  const window = { from: '', to: shaOf(1), toDate: commitOf(1).date, pulls: [1] }
  return [trackedJob(job, { batch: window, ...more })]
}

const included = (decision: Decision<BatchPlan>) => decision.extra?.included.map((pull) => pull.number)

describe('decideBatch', () => {
  it.each([
    ['no history', { tracked: [] }, 'GitHub could not be set up'],
    [
      'no digest issue',
      { history: merged(1), noThread: 'the digest issue could not be found' },
      'the digest issue could not be found'
    ]
  ])('sends nothing with %s, saying the digest issue could not be reached', async (_, world, why) => {
    const { decision, calls } = await batch(world)
    expect(reasonOf(decision)).toBe(
      `mode: batch keeps its record on the digest issue, which could not be reached: ${why}.`
    )
    expect(calls).toEqual([])
  })

  it('sends the merged pull requests as one job, its window recorded before it is sent', async () => {
    const { decision, calls, writes, sent } = await batch({ history: merged(2) })
    expect(decision).toMatchObject({ kind: 'job', sent: true, extra: { window: { to: shaOf(2), pulls: [1, 2] } } })
    expect(calls.slice(-2)).toEqual(['github comment', 'api create'])
    expect(writes[0]?.state).toMatchObject({ batch: { pulls: [1, 2] }, requests: [{ unsure: true }] })
    expect(sent[0]).toContain('Change #2')
  })

  it('waits for the last batch while its job runs, sending nothing', async () => {
    const jobs = { 'job-9': jobRead('job-9', 'active') }
    const { decision, apiCalls } = await batch({ history: merged(2), tracked: lastBatch(), api: { jobs } })
    expect(decision).toMatchObject({ kind: 'job', jobId: 'job-9', sent: false, extra: { window: { pulls: [1] } } })
    expect(apiCalls).toEqual(['api get job-9'])
  })

  it('sends nothing while the last batch may or may not have started a job', async () => {
    const tracked = lastBatch(UNKNOWN_JOB, { requests: [submission({ unsure: true })] })
    const { decision, apiCalls } = await batch({ history: merged(2), tracked })
    expect(reasonOf(decision)).toMatch(
      /^The last batch on the digest issue tried to start an agent job, and could not tell whether it did\./
    )
    expect(apiCalls).toEqual([])
  })

  it('records the end of a last batch that failed since, and takes its pull requests again', async () => {
    const jobs = { 'job-9': jobRead('job-9', 'failed') }
    const { decision, writes } = await batch({ history: merged(2), tracked: lastBatch(), api: { jobs } })
    expect(writes[0]).toMatchObject({ commentId: 5, state: { job: 'job-9', ended: 'failed' } })
    expect(included(decision)).toEqual([1, 2])
  })

  it('moves the cursor past a last batch that completed since, with wait: false', async () => {
    const jobs = { 'job-9': jobRead('job-9', 'completed', DOCS_PR) }
    const world = { inputs: { wait: 'false' }, history: merged(2), tracked: lastBatch(), api: { jobs } }
    const { decision, calls } = await batch(world)
    expect(calls).toContain(`github commits after ${shaOf(1).slice(0, 7)}`)
    expect(included(decision)).toEqual([2])
  })

  it('sends nothing when nothing was merged', async () => {
    const { decision, apiCalls } = await batch({ history: { commits: [], merged: [] } })
    expect(decision).toEqual({ kind: 'skipped', reason: 'nothing new' })
    expect(apiCalls).toEqual([])
  })

  it('records a batch whose every pull request the gates left out, sending nothing', async () => {
    const { decision, apiCalls, writes } = await batch({ history: merged(2, 'mintlify[bot]') })
    expect(reasonOf(decision)).toBe('every pull request of this batch was skipped by the gates (#1, #2)')
    expect(decision.extra?.leftOut.map((skip) => skip.number)).toEqual([1, 2])
    expect(await nextRecord(decision, writes)).toMatchObject({
      ended: 'skipped',
      batch: { pulls: [1, 2], skipped: [1, 2] }
    })
    expect(apiCalls).toEqual([])
  })

  it('sends nothing when another run recorded a batch meanwhile', async () => {
    const { decision, apiCalls } = await batch({ history: merged(2), tracked: [], trackedAgain: lastBatch() })
    expect(reasonOf(decision)).toBe('another run took this batch: its record appeared on the digest issue meanwhile')
    expect(apiCalls).toEqual([])
  })

  it('takes the oldest batch-limit pull requests, and says how many wait', async () => {
    const { decision, log } = await batch({ inputs: { 'batch-limit': '2' }, history: merged(3) })
    expect(included(decision)).toEqual([1, 2])
    expect(decision.extra?.window.to).toBe(shaOf(2))
    expect(log.info).toContain('1 more merged pull request wait for the next batch.')
  })

  it('ends the batch before a pull request whose files cannot be read', async () => {
    const { decision, log } = await batch({ history: { ...merged(3), unreadable: [2] } })
    expect(included(decision)).toEqual([1])
    expect(decision.extra?.window.to).toBe(shaOf(1))
    expect(log.warning).toEqual([
      'The files of pull request #2 could not be read from GitHub: it waits for the next run, and so do the pull requests merged after it.'
    ])
  })

  it("starts at the cursor's date when the history was rewritten, and warns", async () => {
    const tracked = lastBatch('job-9', { ended: 'completed' })
    const { log } = await batch({ history: { ...merged(2), rewritten: true }, tracked })
    expect(log.warning).toEqual([
      `The commit the last batch ended at (${shaOf(1).slice(0, 7)}) is no longer in the history of main (it was rewritten): this batch starts at that commit's date, ${new Date(commitOf(1).date).toISOString()}, instead.`
    ])
  })
})

describe('notifyCovered', () => {
  const plan: BatchPlan = {
    window: { from: '', to: shaOf(2), toDate: 0, pulls: [1, 2] },
    included: [1, 2].map((number) => ({ number, url: `https://github.com/acme/widgets/pull/${number}` })),
    leftOut: []
  }
  const decision = {
    kind: 'job',
    jobId: 'job-9',
    job: undefined,
    submission: undefined,
    followedUp: false,
    sent: true,
    comment: undefined,
    extra: plan
  } as const
  const completed = (prLink: string | null): WaitResult => {
    const read = jobRead('job-9', 'completed', prLink)
    return { kind: 'completed', polls: 2, faults: 0, elapsedMs: 1000, job: read.kind === 'job' ? read.job : undefined }
  }

  it.each([
    [
      'with batch-notify, a note on each pull request covered',
      'true',
      completed(DOCS_PR),
      ['github note #1', 'github note #2']
    ],
    ['without batch-notify, none', 'false', completed(DOCS_PR), []],
    ['completed without a pull request, none', 'true', completed(null), []]
  ])('%s', async (_, notify, result, calls) => {
    const faked = fakeSetup({ inputs: { ...BATCH, 'batch-notify': notify }, history: merged(2) })
    await notifyCovered(faked.setup, decision, result)
    expect(faked.calls).toEqual(calls)
    if (calls.length > 0) expect(faked.said[0]).toBe(`Documented in ${DOCS_PR}, by a docs batch of 2 pull requests.`)
  })
})
