import { describe, expect, it } from 'vitest'
import type { Planned } from '../../../../src/modes/sweep/plan.ts'
import type { AgentRecord } from '../../../../src/github/agent-records.ts'
import { doneOf, figuresOf, outputOf, summaryOf } from '../../../../src/modes/sweep/report.ts'
import type { SweepSettings } from '../../../../src/inputs/sweep-settings.ts'
import type { SweepResult } from '../../../../src/modes/sweep/sweep.ts'

const DAY = 86_400_000
const HOUR = 3_600_000
const NOW = Date.parse('2026-12-01T00:00:00Z')

const SETTINGS: SweepSettings = {
  repository: 'acme/docs',
  actions: new Set(['close-stale']),
  limit: 10,
  staleAfterMs: 14 * DAY,
  windowMs: 30 * DAY
}

const tied = (number: number, origin: AgentRecord['origin']): AgentRecord => ({
  number,
  url: `https://github.com/acme/docs/pull/${number}`,
  origin,
  job: `job-${number}`,
  issue: 1,
  startedAt: 0,
  commentId: number,
  askedToUpdate: false,
  state: { job: `job-${number}`, requests: [] }
})

const planned = (number: number, more: Partial<Planned>): Planned => ({
  pull: {
    number,
    title: 'Docs',
    author: { login: 'mintlify[bot]', bot: true },
    createdAt: NOW - 3 * DAY,
    updatedAt: NOW,
    headSha: ''
  },
  record: tied(number, 'pair'),
  finding: 'open',
  action: undefined,
  why: 'waiting for an approving review',
  step: undefined,
  ...more
})

describe('figuresOf', () => {
  it('counts the agent pull requests opened in the window by origin, with this run closes and merges', () => {
    const origins = new Map<number, AgentRecord['origin']>([
      [1, 'pair'],
      [2, 'pair'],
      [3, 'pair'],
      [4, 'batch'],
      [5, 'batch']
    ])
    const window = [
      { number: 1, createdAt: NOW - 10 * DAY, mergedAt: NOW - 10 * DAY + 2 * HOUR, closedAt: NOW - 9 * DAY },
      { number: 2, createdAt: NOW - 5 * DAY, mergedAt: NOW - 5 * DAY + 6 * HOUR, closedAt: NOW - 4 * DAY },
      { number: 3, createdAt: NOW - 3 * DAY, mergedAt: undefined, closedAt: NOW - 2 * DAY },
      { number: 4, createdAt: NOW - 2 * DAY, mergedAt: undefined, closedAt: undefined },
      { number: 5, createdAt: NOW - DAY, mergedAt: undefined, closedAt: undefined },
      // Not the action's: not counted.
      { number: 6, createdAt: NOW - DAY, mergedAt: NOW, closedAt: NOW }
    ]
    const figures = figuresOf(window, origins, [{ number: 5, result: 'merged', detail: '' }], NOW)
    expect(figures.pair).toEqual({
      opened: 3,
      merged: 2,
      closedUnmerged: 1,
      open: 0,
      mergedShare: 2 / 3,
      medianToMergeMs: 4 * HOUR
    })
    expect(figures.batch).toEqual({
      opened: 2,
      merged: 1,
      closedUnmerged: 0,
      open: 1,
      mergedShare: 0.5,
      medianToMergeMs: DAY
    })
    expect(figures.all).toMatchObject({ opened: 5, merged: 3, mergedShare: 0.6, medianToMergeMs: 6 * HOUR })
    expect(figures.single).toEqual({
      opened: 0,
      merged: 0,
      closedUnmerged: 0,
      open: 0,
      mergedShare: null,
      medianToMergeMs: null
    })
  })
})

describe('doneOf', () => {
  it('says what was done, what would be, and why not now', () => {
    const outcomes = [{ number: 1, result: 'closed' as const, detail: '' }]
    expect(doneOf(planned(1, { action: 'close-stale', step: 'act' }), outcomes)).toBe('closed')
    expect(doneOf(planned(2, { action: 'close-orphaned', step: 'not-enabled' }), outcomes)).toBe(
      'would close (close-orphaned is not in sweep-actions)'
    )
    expect(doneOf(planned(3, { action: 'merge-approved', step: 'over-limit' }), outcomes)).toBe(
      'would merge (past sweep-limit: the next sweep)'
    )
    expect(doneOf(planned(4, {}), outcomes)).toBe('left alone')
  })
})

describe('the summary and the output', () => {
  const hostile = planned(7, {
    pull: {
      number: 7,
      title: 'Docs | <img src=x onerror=alert(1)> [link](https://evil.example) @octocat\n::error::x',
      author: { login: 'mallory|<b>', bot: false },
      createdAt: NOW - 30 * HOUR,
      updatedAt: NOW,
      headSha: ''
    },
    record: undefined,
    finding: 'untied',
    why: 'no record of this action ties it to a job'
  })
  const result: SweepResult = {
    repository: 'acme/docs',
    planned: [planned(1, { finding: 'stale', action: 'close-stale', step: 'act' }), hostile],
    outcomes: [{ number: 1, result: 'closed', detail: '' }],
    window: [],
    origins: new Map(),
    requests: { workflow: 3, docs: 9, perPull: new Map() },
    notes: []
  }

  it('shows every open agent pull request in one table row each, with titles and logins made safe', () => {
    const summary = summaryOf(result, SETTINGS, NOW)
    const rows = summary.split('\n').filter((line) => line.startsWith('| #') || line.startsWith('| <a'))
    expect(rows).toHaveLength(2)
    expect(rows[0]).toBe(
      '| <a href="https://github.com/acme/docs/pull/1">#1</a> `Docs` | 3d | pair | stale: waiting for an approving review | closed |'
    )
    // Seven cells: nothing from the title or the login adds a column, a tag, a link, a mention or a line. The title is
    // a code span (GitHub links and mentions nothing in one), its pipes escaped for the table.
    expect(rows[1]?.split(/(?<!\\)\|/)).toHaveLength(7)
    expect(rows[1]).toContain('`Docs \\| <img src=x onerror=alert(1)> [link](https://evil.example) @octocat ::err…`')
    expect(rows[1]).not.toMatch(/<b>/)
    expect(summary).toContain('2 open agent pull requests; the sweep may close-stale, at most 10 a run.')
  })

  it('gives one line of JSON: the figures, each action taken, each proposed, and the requests', () => {
    const output = outputOf(result, SETTINGS, NOW)
    expect(output).not.toContain('\n')
    expect(JSON.parse(output)).toMatchObject({
      repository: 'acme/docs',
      window: '30d',
      open: 2,
      actions: [
        {
          number: 1,
          url: 'https://github.com/acme/docs/pull/1',
          origin: 'pair',
          finding: 'stale',
          action: 'close-stale',
          result: 'closed',
          detail: ''
        }
      ],
      proposed: [],
      requests: { workflow: 3, docs: 9 }
    })
  })
})
