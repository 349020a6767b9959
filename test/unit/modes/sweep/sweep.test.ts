// A sweep against the simulated GitHub on loopback: what it reads, what it writes, and that it never writes twice.
import { afterAll, describe, expect, it } from 'vitest'
import {
  agentDocsPulls,
  agentRecords,
  type FakeGitHub,
  type FakeGitHubOptions,
  startFakeGitHub
} from '../../../../sim/github-api.ts'
import { settingsOf } from '../../../../sim/settings.ts'
import { openDocsSweep } from '../../../../src/github/docs-sweep.ts'
import { openSession, type RunInfo } from '../../../../src/github/session.ts'
import { markerOf, promptHash, type TrackingState } from '../../../../src/github/tracking-record.ts'
import { openTransport } from '../../../../src/transport/transport.ts'
import type { FollowUp } from '../../../../src/modes/sweep/act.ts'
import { type AgentRecord, UPDATE_PROMPT } from '../../../../src/github/agent-records.ts'
import { SWEEP_ACTIONS, type SweepAction } from '../../../../src/inputs/sweep-settings.ts'
import { sweep, type SweepResult } from '../../../../src/modes/sweep/sweep.ts'

const opened = openTransport([], { http: undefined, https: undefined, noProxy: '' }, new AbortController().signal)
const servers: FakeGitHub[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await opened.close()
})

const DAY = 86_400_000
const NOW = Date.parse('2026-12-01T12:00:00Z')
const ago = (days: number): string => new Date(NOW - days * DAY).toISOString()
const VIEWER = 'github-actions[bot]'
const QUIET = { info: () => undefined, warning: () => undefined, debug: () => undefined }
const AGENT = 'mintlify[bot]'

/** A docs pull request the agent opened `days` ago, last updated a day ago. */
const docsPull = agentDocsPulls(NOW)

const record = agentRecords(NOW, 'docs')

const HEAD = { head: 'e'.repeat(40) }

interface Run {
  readonly github: FakeGitHub
  readonly result: SweepResult
  readonly asked: AgentRecord[]
  readonly writes: string[]
}

async function run(
  options: FakeGitHubOptions,
  actions: readonly SweepAction[] = [],
  more: { limit?: number; followUp?: FollowUp; github?: FakeGitHub } = {}
): Promise<Run> {
  const github = more.github ?? (await startFakeGitHub({ owner: 'acme', repo: 'api', viewer: VIEWER, ...options }))
  if (!more.github) servers.push(github)
  const asked: AgentRecord[] = []
  const before = github.calls.length
  const run: RunInfo = {
    eventName: 'schedule',
    payload: {},
    apiUrl: github.url,
    serverUrl: 'https://github.com',
    runId: 7,
    runAttempt: 1
  }
  const throttled = openSession(
    settingsOf({ 'github-token': 'ghs_token' }),
    opened.transport,
    { repository: 'acme/api', log: QUIET, deadlineMs: 20_000 },
    run
  )
  // The simulated GitHub asks no second between writes: the writes' queue is Octokit's plugin's, not the sweep's.
  const client = (...[limits, as]: Parameters<typeof throttled.client>) =>
    throttled.client({ ...limits, throttled: false }, as)
  const swept = await sweep(openDocsSweep({ ...throttled, client }, 'acme/docs'), {
    settings: {
      repository: 'acme/docs',
      actions: new Set(actions),
      limit: more.limit ?? 10,
      staleAfterMs: 14 * DAY,
      windowMs: 30 * DAY
    },
    projectId: 'docs',
    now: NOW,
    hosts: new Set(['github.com']),
    redact: (text) => text,
    log: QUIET,
    followUp:
      more.followUp ??
      ((tied) => {
        asked.push(tied)
        return Promise.resolve({ kind: 'sent' })
      })
  })
  if (swept.kind !== 'done') throw new Error(swept.warning)
  const result = swept.value
  if (process.env['SWEEP_DEBUG']) console.log(github.calls.slice(before).join('\n'))
  const writes = github.calls.slice(before).filter((call) => !call.startsWith('GET') && call !== 'POST /graphql')
  return { github, result, asked, writes }
}

const findings = (result: SweepResult) =>
  Object.fromEntries(result.planned.map((entry) => [entry.pull.number, [entry.finding, entry.step]]))
const docsComments = (github: FakeGitHub, number: number) =>
  github.comments.filter((comment) => comment.repo === 'acme/docs' && comment.issue === number)
const stateOf = (github: FakeGitHub, number: number) =>
  github.pulls.get('acme/docs')?.find((pull) => pull.number === number)

/** One of each: orphaned, superseded, approved, conflicted, stale, touched, untied, forged. */
const WORLD: FakeGitHubOptions = {
  pulls: {
    'acme/api': [
      { number: 41, state: 'closed', merged: false, labels: [] },
      { number: 43, state: 'closed', merged: true, labels: [] },
      // Closed unmerged: a record of the action's own on it would make #9 orphaned; the forged ones move nothing.
      { number: 44, state: 'closed', merged: false, labels: [] }
    ],
    'acme/docs': [
      docsPull(1, 20),
      docsPull(2, 19),
      docsPull(3, 18),
      docsPull(4, 17, { reviews: [{ user: 'mona', state: 'APPROVED' }], checks: { runs: ['completed/success'] } }),
      docsPull(5, 16, { mergeable: false }),
      docsPull(6, 25, { updatedAt: ago(20) }),
      docsPull(7, 24, {
        updatedAt: ago(20),
        commits: [
          { sha: 'c'.repeat(40), author: AGENT, email: 'agent@mintlify.com' },
          { sha: 'd'.repeat(40), author: 'mona', email: 'mona@example.com' }
        ]
      }),
      docsPull(8, 10),
      docsPull(9, 9),
      { ...docsPull(10, 8), user: 'mona' }
    ]
  },
  existing: [
    record(41, 1, HEAD),
    record(42, 2, { ...HEAD, startedDays: 30 }),
    record(42, 3, { ...HEAD, startedDays: 20 }),
    record(43, 4, { ...HEAD, source: 'merged' }),
    record(50, 5),
    record(51, 6),
    record(52, 7),
    record(44, 9, { ...HEAD, user: 'mallory' }),
    record(44, 9, { ...HEAD, user: 'github-actions' })
  ]
}

describe('sweep', () => {
  it('in report mode lists every open agent pull request with what it would do, and writes nothing', async () => {
    const { result, writes, asked } = await run(WORLD)
    expect(findings(result)).toEqual({
      1: ['orphaned', 'not-enabled'],
      2: ['superseded', 'not-enabled'],
      3: ['open', undefined],
      4: ['approved', 'not-enabled'],
      5: ['conflicted', 'not-enabled'],
      6: ['stale', 'not-enabled'],
      7: ['open', undefined],
      8: ['untied', undefined],
      9: ['untied', undefined]
    })
    expect(writes).toEqual([])
    expect(asked).toEqual([])
  })

  it('with every action: closes with a link, merges, asks once, and leaves alone what is not tied or a person touched', async () => {
    const { github, result, asked } = await run(WORLD, SWEEP_ACTIONS)
    expect(result.outcomes.map((outcome) => [outcome.number, outcome.result])).toEqual([
      [6, 'closed'],
      [1, 'closed'],
      [2, 'closed'],
      [4, 'merged'],
      [5, 'asked']
    ])
    expect(docsComments(github, 1).map((comment) => comment.body)).toEqual([
      expect.stringContaining('The code pull request https://github.com/acme/api/pull/41, which this docs pull request')
    ])
    expect(docsComments(github, 2)[0]?.body).toContain('Superseded by https://github.com/acme/docs/pull/3')
    expect(docsComments(github, 6)[0]?.body).toContain('No activity for 20 days, so this docs pull request is closed.')
    expect(stateOf(github, 4)).toMatchObject({ state: 'closed', merged: true })
    expect(asked.map((tied) => tied.job)).toEqual(['job-5'])
    for (const left of [3, 7, 8, 9, 10]) {
      expect(stateOf(github, left)?.state).toBe('open')
      expect(docsComments(github, left)).toEqual([])
    }
  })

  it('takes at most sweep-limit actions, oldest first', async () => {
    const pulls = [docsPull(1, 20), docsPull(2, 40), docsPull(3, 30)].map((pull) => ({ ...pull, updatedAt: ago(15) }))
    const { result } = await run(
      { pulls: { 'acme/docs': pulls }, existing: [record(1, 1), record(2, 2, { startedDays: 40 }), record(3, 3)] },
      ['close-stale'],
      { limit: 2 }
    )
    expect(result.planned.map((entry) => [entry.pull.number, entry.step])).toEqual([
      [2, 'act'],
      [3, 'act'],
      [1, 'over-limit']
    ])
    expect(result.outcomes.map((outcome) => outcome.number)).toEqual([2, 3])
  })

  it('reads a merge GitHub answered with a 502 back, and neither merges nor comments again', async () => {
    const approved = docsPull(4, 17, { reviews: [{ user: 'mona', state: 'APPROVED' }] })
    const { github, result, writes } = await run(
      {
        pulls: { 'acme/docs': [approved] },
        existing: [record(4, 4)],
        failAfterWriting: (call) => (call === 'PUT /repos/acme/docs/pulls/4/merge' ? 502 : undefined)
      },
      ['merge-approved']
    )
    expect(writes).toEqual(['PUT /repos/acme/docs/pulls/4/merge'])
    expect(result.outcomes).toEqual([{ number: 4, result: 'merged', detail: '' }])
    expect(docsComments(github, 4)).toEqual([])
  })

  it('says a close GitHub answered with a 502 did not land, and tries nothing more', async () => {
    const { github, result, writes } = await run(
      {
        pulls: { 'acme/docs': [docsPull(6, 25, { updatedAt: ago(20) })] },
        existing: [record(6, 6)],
        intercept: (call, _req, res) => {
          if (call !== 'PATCH /repos/acme/docs/pulls/6') return false
          res.writeHead(502).end('{"message":"Server Error"}')
          return true
        }
      },
      ['close-stale']
    )
    // The close comes first: one that did not land leaves no comment saying it was closed.
    expect(writes).toEqual(['PATCH /repos/acme/docs/pulls/6'])
    expect(docsComments(github, 6)).toEqual([])
    expect(result.outcomes).toEqual([
      {
        number: 6,
        result: 'failed',
        detail:
          'Could not close pull request #6 in acme/docs (HTTP 502). Nothing more was tried on it; the next sweep looks again.'
      }
    ])
    expect(stateOf(github, 6)?.state).toBe('open')
  })

  it("never writes its comment twice: one of its own there already (an earlier run's) is not written again", async () => {
    const mark = '<!-- mintlify-agent-sweep: stale -->\nNo activity for 20 days, so this docs pull request is closed.'
    const { github, writes, result } = await run(
      {
        pulls: { 'acme/docs': [docsPull(6, 25, { updatedAt: ago(20) })] },
        existing: [
          record(6, 6),
          { repo: 'acme/docs', issue: 6, user: VIEWER, body: mark, updatedAt: ago(20) },
          // Anyone else's comment with the mark is not the sweep's: it is no reason to stay silent.
          { repo: 'acme/docs', issue: 7, user: 'mallory', body: mark, updatedAt: ago(20) }
        ]
      },
      ['close-stale']
    )
    expect(writes).toEqual(['PATCH /repos/acme/docs/pulls/6'])
    expect(result.outcomes.map((outcome) => outcome.result)).toEqual(['closed'])
    expect(docsComments(github, 6)).toHaveLength(1)
  })

  it('closes, then reads a comment GitHub answered with a 502 back, and posts it once', async () => {
    const { github, writes, result } = await run(
      {
        pulls: { 'acme/docs': [docsPull(6, 25, { updatedAt: ago(20) })] },
        existing: [record(6, 6)],
        failAfterWriting: (call) => (call === 'POST /repos/acme/docs/issues/6/comments' ? 502 : undefined)
      },
      ['close-stale']
    )
    expect(writes).toEqual(['PATCH /repos/acme/docs/pulls/6', 'POST /repos/acme/docs/issues/6/comments'])
    expect(result.outcomes.map((outcome) => outcome.result)).toEqual(['closed'])
    expect(docsComments(github, 6)).toHaveLength(1)
  })

  it('asks the job of a conflicted pull request once across two runs: its record says it was asked', async () => {
    const github = await startFakeGitHub({
      owner: 'acme',
      repo: 'api',
      viewer: VIEWER,
      pulls: { 'acme/docs': [docsPull(5, 16, { mergeable: false })] },
      existing: [record(50, 5)]
    })
    servers.push(github)
    // As the step does, the follow-up is recorded on the job's tracking comment before it is sent.
    const followUp: FollowUp = (tied) => {
      const stored = github.comments.find((comment) => comment.id === tied.commentId)
      if (stored) stored.body = `${markerOf(askedAgain(UPDATE_PROMPT))}\nTracking.`
      return Promise.resolve({ kind: 'sent' })
    }
    const first = await run({}, ['update-conflicted'], { github, followUp })
    expect(first.result.outcomes.map((outcome) => [outcome.number, outcome.result])).toEqual([[5, 'asked']])
    const second = await run({}, ['update-conflicted'], { github, followUp })
    expect(second.result.outcomes).toEqual([])
    expect(findings(second.result)).toEqual({ 5: ['conflicted', undefined] })
  })

  it('costs two reads for a pull request judged by its details, one more before a close, none for one untied', async () => {
    const { result } = await run(WORLD)
    const perPull = Object.fromEntries(result.requests.perPull)
    expect(perPull).toMatchObject({ 3: 2, 5: 2, 8: 0, 9: 0 })
    // The orphaned pair's code pull request is read once, and its events before the close.
    expect(perPull[1]).toBe(2)
    // An approved one's checks: two reads more.
    expect(perPull[4]).toBe(4)
    // Stale candidates: commits and review comments, then the events.
    expect(perPull[6]).toBe(5)
  })

  it('never closes again a pull request someone reopened after a sweep closed it', async () => {
    const github = await startFakeGitHub({
      owner: 'acme',
      repo: 'api',
      viewer: VIEWER,
      pulls: {
        'acme/api': [{ number: 41, state: 'closed', merged: false, labels: [] }],
        'acme/docs': [docsPull(1, 20), docsPull(6, 25, { updatedAt: ago(20) })]
      },
      existing: [record(41, 1, HEAD), record(51, 6)]
    })
    servers.push(github)
    const first = await run({}, ['close-orphaned', 'close-stale'], { github })
    expect(first.result.outcomes.map((outcome) => [outcome.number, outcome.result])).toEqual([
      [6, 'closed'],
      [1, 'closed']
    ])
    for (const number of [1, 6]) {
      const pull = stateOf(github, number)
      if (!pull) throw new Error(`no pull request #${number}`)
      pull.state = 'open'
      pull.events = [...(pull.events ?? []), { event: 'reopened', actor: 'mona' }]
      pull.updatedAt = ago(15)
    }
    const second = await run({}, ['close-orphaned', 'close-stale'], { github })
    expect(second.writes).toEqual([])
    expect(second.result.planned.map((entry) => entry.unread)).toEqual([undefined, undefined])
    expect(findings(second.result)).toEqual({ 1: ['open', undefined], 6: ['open', undefined] })
    expect(second.result.planned[0]?.why).toMatch(/someone reopened it after it was closed: left to them/)
  })

  it('closes again one only the action itself reopened (a pair reopens a docs pull request with its code)', async () => {
    const idle = docsPull(6, 25, {
      updatedAt: ago(20),
      events: [
        { event: 'closed', actor: VIEWER },
        { event: 'reopened', actor: VIEWER }
      ]
    })
    const { writes } = await run({ pulls: { 'acme/docs': [idle] }, existing: [record(51, 6)] }, ['close-stale'])
    expect(writes).toEqual(['PATCH /repos/acme/docs/pulls/6', 'POST /repos/acme/docs/issues/6/comments'])
  })

  it("leaves alone a pull request a record names but which was opened before that record's job started", async () => {
    const { result, writes } = await run(
      {
        pulls: {
          'acme/api': [{ number: 41, state: 'closed', merged: false, labels: [] }],
          'acme/docs': [{ ...docsPull(10, 8), user: 'mona' }]
        },
        // The admin API answered the job with a link to a person's pull request opened days before the job.
        existing: [record(41, 10, { ...HEAD, startedDays: 5 })]
      },
      ['close-orphaned', 'close-stale']
    )
    expect(writes).toEqual([])
    expect(findings(result)).toEqual({ 10: ['untied', undefined] })
  })

  it('reads the records newest first: in a busy repository, the latest jobs are tied and the oldest comments left', async () => {
    const chatter = Array.from({ length: 2_050 }, (_, index) => ({
      issue: 100 + (index % 50),
      user: 'mona',
      body: 'A comment.',
      updatedAt: ago(10)
    }))
    const { result, writes } = await run(
      {
        pulls: {
          'acme/api': [{ number: 41, state: 'closed', merged: false, labels: [] }],
          'acme/docs': [docsPull(1, 3)]
        },
        existing: [...chatter, record(41, 1, { ...HEAD, startedDays: 5 })]
      },
      ['close-orphaned']
    )
    expect(findings(result)).toEqual({ 1: ['orphaned', 'act'] })
    expect(writes).toEqual(['PATCH /repos/acme/docs/pulls/1', 'POST /repos/acme/docs/issues/1/comments'])
    expect(result.notes.join(' ')).toMatch(/more comments .* than a sweep reads \(2,000, newest first\)/)
  })
})

function askedAgain(prompt: string): TrackingState {
  return {
    job: 'job-5',
    requests: [
      { kind: 'start', run: '1', attempt: 1, prompt: 'p', line: 'Docs', project: 'docs', at: NOW - 30 * DAY },
      { kind: 'follow-up', run: '2', attempt: 1, prompt: promptHash(prompt), line: 'Update', project: 'docs', at: NOW }
    ],
    pr: 'https://github.com/acme/docs/pull/5'
  }
}
