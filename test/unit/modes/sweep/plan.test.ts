import { describe, expect, it } from 'vitest'
import type { OpenPull, PullDetails } from '../../../../src/github/agent-pulls.ts'
import {
  type Judged,
  type Judging,
  judgeByDetails,
  judgeByRecords,
  type Later,
  mayBeMerged,
  mayBeStale,
  plan
} from '../../../../src/modes/sweep/plan.ts'
import type { AgentRecord } from '../../../../src/github/agent-records.ts'

const DAY = 86_400_000
const NOW = Date.parse('2026-12-01T00:00:00Z')
const AGENT = { login: 'mintlify[bot]', bot: true }

const pull = (number: number, more: Partial<OpenPull> = {}): OpenPull => ({
  number,
  title: `Docs ${number}`,
  author: AGENT,
  createdAt: NOW - 20 * DAY + number,
  updatedAt: NOW - DAY,
  headSha: 'a'.repeat(40),
  ...more
})

const record = (number: number, more: Partial<AgentRecord> = {}): AgentRecord => ({
  number,
  url: `https://github.com/acme/docs/pull/${number}`,
  origin: 'single',
  job: `job-${number}`,
  issue: 100 + number,
  startedAt: number,
  commentId: number,
  askedToUpdate: false,
  state: { job: `job-${number}`, requests: [] },
  ...more
})

const details = (more: Partial<PullDetails> = {}): PullDetails => ({
  mergeable: true,
  mergeState: 'clean',
  headSha: 'b'.repeat(40),
  reviews: { approved: false, changesRequested: false, byPeople: false },
  author: { login: 'mintlify[bot]', bot: true },
  createdAt: 0,
  draft: false,
  ...more
})
const APPROVED = { approved: true, changesRequested: false, byPeople: true }

function judging(records: AgentRecord[] = [], more: Partial<Judging> = {}): Judging {
  return {
    now: NOW,
    staleAfterMs: 14 * DAY,
    asksToUpdate: true,
    records,
    open: new Set(records.map((entry) => entry.number)),
    openedAt: new Map(),
    merged: new Set(),
    code: new Map(),
    codeUrl: (number) => `https://github.com/acme/api/pull/${number}`,
    ...more
  }
}

/** The finding and action of one pull request, judged with its details when the records do not decide. */
function judge(
  entry: OpenPull,
  tied: AgentRecord,
  at: Judging,
  read: PullDetails = details(),
  later: Later = { touched: false, checks: 'pass' }
) {
  const judged = judgeByRecords(entry, tied, at) ?? judgeByDetails(entry, tied, read, later, at)
  return { finding: judged.finding, action: judged.action, why: judged.why, link: judged.link }
}

describe('judging one pull request', () => {
  it('leaves alone a pull request no record ties to the action, even one the agent opened', () => {
    expect(judgeByRecords(pull(1), undefined, judging())).toMatchObject({
      finding: 'untied',
      action: undefined,
      why: 'opened by the Mintlify agent, but no record of this action ties it to a job'
    })
  })

  it('closes as orphaned a pair whose code pull request was closed unmerged, linking it', () => {
    const tied = record(1, { origin: 'pair', issue: 42 })
    expect(judge(pull(1), tied, judging([tied], { code: new Map([[42, 'closed']]) }))).toEqual({
      finding: 'orphaned',
      action: 'close-orphaned',
      why: 'its code pull request https://github.com/acme/api/pull/42 was closed without merging',
      link: 'https://github.com/acme/api/pull/42'
    })
  })

  it('leaves alone a docs pull request a person reopened after the action closed it with its code', () => {
    const tied = record(1, { origin: 'pair', issue: 42, source: 'closed' })
    expect(judge(pull(1), tied, judging([tied], { code: new Map([[42, 'closed']]) }))).toMatchObject({
      finding: 'open',
      action: undefined
    })
  })

  it('closes as superseded a pair whose code pull request a newer job took over, linking the newer', () => {
    const older = record(1, { origin: 'pair', issue: 42, startedAt: 1 })
    const newer = record(2, { origin: 'pair', issue: 42, startedAt: 2 })
    const at = judging([older, newer], { code: new Map([[42, 'open']]) })
    expect(judge(pull(1), older, at)).toMatchObject({
      finding: 'superseded',
      action: 'close-superseded',
      link: newer.url
    })
    // The newer one stands, and so does the older one while the newer is neither open nor merged.
    expect(judge(pull(2), newer, at).finding).toBe('open')
    expect(judge(pull(1), older, { ...at, open: new Set([1]) }).finding).toBe('open')
    expect(judge(pull(1), older, { ...at, open: new Set([1]), merged: new Set([2]) }).finding).toBe('superseded')
    // A newer record whose link names a pull request opened before its job started takes over nothing.
    const predating = { ...at, openedAt: new Map([[2, newer.startedAt - 86_400_000]]) }
    expect(judge(pull(1), older, predating).finding).toBe('open')
  })

  it('closes as superseded a batch whose every pull request a newer batch covers, or one a record names as replaced', () => {
    const older = record(1, { origin: 'batch', covers: [7, 8], startedAt: 1 })
    const partly = record(2, { origin: 'batch', covers: [8, 9], startedAt: 2 })
    expect(judge(pull(1), older, judging([older, partly])).finding).toBe('open')
    const whole = record(3, { origin: 'batch', covers: [7, 8, 9], startedAt: 3 })
    expect(judge(pull(1), older, judging([older, partly, whole])).link).toBe(whole.url)
    const single = record(4, { startedAt: 1 })
    const replaces = record(5, { origin: 'pair', supersedes: 4, startedAt: 5 })
    expect(judge(pull(4), single, judging([single, replaces])).finding).toBe('superseded')
  })

  it('merges an approved, mergeable pull request whose checks pass: from a batch, a single run, or a merged pair', () => {
    const at = judging([], { code: new Map([[42, 'merged']]) })
    const read = details({ reviews: APPROVED })
    for (const tied of [record(1, { origin: 'batch' }), record(1), record(1, { origin: 'pair', issue: 42 })]) {
      expect(judge(pull(1), tied, at, read)).toMatchObject({ finding: 'approved', action: 'merge-approved' })
    }
    const merged = judgeByDetails(pull(1), record(1), read, { checks: 'pass' }, at)
    expect(merged.head).toBe('b'.repeat(40))
  })

  it.each([
    ['its code pull request is open', record(1, { origin: 'pair', issue: 42 }), details({ reviews: APPROVED }), 'pass'],
    ['a person asked for it', record(1, { origin: 'request' }), details({ reviews: APPROVED }), 'pass'],
    ['changes were asked for', record(1), details({ reviews: { ...APPROVED, changesRequested: true } }), 'pass'],
    ['nobody approved it', record(1), details(), 'pass'],
    ['its checks failed', record(1), details({ reviews: APPROVED }), 'fail'],
    ['its checks are running', record(1), details({ reviews: APPROVED }), 'pending'],
    ['the rules block it', record(1), details({ reviews: APPROVED, mergeState: 'blocked' }), 'pass'],
    [
      'GitHub has not worked out its mergeability',
      record(1),
      details({ reviews: APPROVED, mergeable: undefined }),
      'pass'
    ]
  ] as const)('does not merge when %s', (_case, tied, read, checks) => {
    const at = judging([], { code: new Map([[42, 'open']]) })
    expect(judge(pull(1), tied, at, read, { touched: false, checks })).toMatchObject({
      finding: 'open',
      action: undefined
    })
  })

  it('reads the checks only of a pull request it may merge', () => {
    const at = judging([], { code: new Map([[42, 'open']]) })
    expect(mayBeMerged(record(1), details({ reviews: APPROVED }), at)).toBe(true)
    expect(mayBeMerged(record(1), details(), at)).toBe(false)
    expect(mayBeMerged(record(1, { origin: 'pair', issue: 42 }), details({ reviews: APPROVED }), at)).toBe(false)
  })

  it('asks the job of a conflicted pull request to update its branch once; after that, reports it', () => {
    const conflicted = details({ mergeable: false, mergeState: 'dirty' })
    expect(judge(pull(1), record(1), judging(), conflicted)).toMatchObject({
      finding: 'conflicted',
      action: 'update-conflicted',
      why: 'its branch conflicts with its base branch: its job is asked to bring it up to date'
    })
    expect(judge(pull(1), record(1), judging(), details({ mergeState: 'behind' })).why).toContain('is behind')
    expect(judge(pull(1), record(1, { askedToUpdate: true }), judging(), conflicted)).toMatchObject({
      finding: 'conflicted',
      action: undefined
    })
  })

  it('closes a stale one that conflicts as stale when sweep-actions does not let it ask for an update', () => {
    const idle = pull(1, { updatedAt: NOW - 15 * DAY })
    const conflicted = details({ mergeable: false, mergeState: 'dirty' })
    expect(judge(idle, record(1), judging([], { asksToUpdate: false }), conflicted)).toMatchObject({
      finding: 'stale',
      action: 'close-stale'
    })
    expect(judge(idle, record(1), judging(), conflicted)).toMatchObject({ finding: 'conflicted' })
    // Not stale: reported as conflicted whatever sweep-actions says, so the report says what is wrong with it.
    expect(judge(pull(1), record(1), judging([], { asksToUpdate: false }), conflicted)).toMatchObject({
      finding: 'conflicted'
    })
  })

  it('closes as stale a pull request with no activity for stale-after; after asking, a conflicted one too', () => {
    const idle = pull(1, { updatedAt: NOW - 15 * DAY })
    expect(mayBeStale(idle, judging())).toBe(true)
    expect(mayBeStale(pull(1), judging())).toBe(false)
    expect(judge(idle, record(1), judging())).toMatchObject({
      finding: 'stale',
      action: 'close-stale',
      why: 'no activity for 15 days'
    })
    const asked = record(1, { askedToUpdate: true })
    expect(judge(idle, asked, judging(), details({ mergeable: false })).finding).toBe('stale')
  })

  it('never closes as stale a pull request a person committed to, left a review comment on, or reviewed', () => {
    const idle = pull(1, { updatedAt: NOW - 40 * DAY })
    expect(judge(idle, record(1), judging(), details(), { touched: true })).toMatchObject({
      finding: 'open',
      action: undefined,
      why: 'no activity for 40 days, but a person worked on it: never closed as stale'
    })
    const reviewed = details({ reviews: { approved: false, changesRequested: false, byPeople: true } })
    expect(judge(idle, record(1), judging(), reviewed, { touched: false }).finding).toBe('open')
  })
})

describe('plan', () => {
  const judged = (number: number, action: Judged['action'], createdAt: number): Judged => ({
    pull: pull(number, { createdAt }),
    record: record(number),
    finding: action === undefined ? 'open' : 'stale',
    action,
    why: ''
  })

  it('takes at most sweep-limit actions, oldest pull request first, and only those sweep-actions names', () => {
    const planned = plan(
      [
        judged(1, 'close-stale', 50),
        judged(2, 'merge-approved', 10),
        judged(3, undefined, 5),
        judged(4, 'close-stale', 20),
        judged(5, 'close-stale', 30)
      ],
      { actions: new Set(['close-stale']), limit: 2 }
    )
    expect(planned.map((entry) => [entry.pull.number, entry.step])).toEqual([
      [3, undefined],
      [2, 'not-enabled'],
      [4, 'act'],
      [5, 'act'],
      [1, 'over-limit']
    ])
  })

  it('only reports with no sweep-actions', () => {
    const planned = plan([judged(1, 'close-stale', 1), judged(2, 'merge-approved', 2)], {
      actions: new Set(),
      limit: 10
    })
    expect(planned.map((entry) => entry.step)).toEqual(['not-enabled', 'not-enabled'])
  })
})
