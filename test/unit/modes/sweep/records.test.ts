import { describe, expect, it } from 'vitest'
import { markerOf, promptHash, type TrackingState } from '../../../../src/github/tracking-record.ts'
import { recordsIn, type RecordsOf, UPDATE_PROMPT } from '../../../../src/github/agent-records.ts'

const OF: RecordsOf = {
  me: 'docs-helper[bot]',
  projectId: 'docs',
  docs: 'acme/docs',
  hosts: new Set(['github.com']),
  redact: (text) => text
}

const start = (at: number, more: Record<string, unknown> = {}) => ({
  kind: 'start' as const,
  run: '1',
  attempt: 1,
  prompt: 'abc',
  line: 'Document it',
  project: 'docs',
  at,
  ...more
})

let nextId = 1
function comment(state: TrackingState, user = { login: 'docs-helper[bot]', type: 'Bot' }, issue = 7) {
  return {
    id: nextId++,
    user,
    body: `${markerOf(state)}\nThe tracking comment.`,
    issue_url: `https://api.github.com/repos/acme/api/issues/${issue}`
  }
}

const docs = (number: number) => `https://github.com/acme/docs/pull/${number}`

describe('recordsIn', () => {
  it('tells each origin from what the record holds', () => {
    const records = recordsIn(
      [
        comment({ job: 'j1', requests: [start(1, { head: 'a'.repeat(40) })], pr: docs(1) }),
        comment({
          job: 'j2',
          requests: [start(2)],
          pr: docs(2),
          batch: { from: '', to: 'b'.repeat(40), toDate: 1, pulls: [3, 4] }
        }),
        comment({ job: 'j3', requests: [start(3)], pr: docs(3) }),
        comment({ job: 'j4', requests: [start(4, { asked: true })], pr: docs(4) })
      ],
      OF
    )
    expect(records.map((record) => [record.number, record.origin, record.job])).toEqual([
      [1, 'pair', 'j1'],
      [2, 'batch', 'j2'],
      [3, 'single', 'j3'],
      [4, 'request', 'j4']
    ])
    expect(records[1]?.covers).toEqual([3, 4])
    expect(records[0]).toMatchObject({ issue: 7, startedAt: 1, url: docs(1), askedToUpdate: false })
  })

  it('ignores a forged record: the marker written by anyone else, or by a user named like the app', () => {
    const state = { job: 'j1', requests: [start(1)], pr: docs(1) }
    expect(
      recordsIn(
        [
          comment(state, { login: 'mallory', type: 'User' }),
          comment(state, { login: 'docs-helper', type: 'User' }),
          comment(state, { login: 'docs-helper[bot]', type: 'User' })
        ],
        OF
      )
    ).toEqual([])
    // The app writes as `name[bot]`, a bot (the session names who the token acts as in that form).
    expect(recordsIn([comment(state)], OF)).toHaveLength(1)
  })

  it("leaves out another project's records, another repository's pull requests, and jobs never started", () => {
    const records = recordsIn(
      [
        comment({ job: 'j1', requests: [start(1, { project: 'other' })], pr: docs(1) }),
        comment({ job: 'j2', requests: [start(2)], pr: 'https://github.com/acme/website/pull/2' }),
        comment({ job: 'j3', requests: [start(3)], pr: 'https://evil.example/acme/docs/pull/3' }),
        comment({ job: '', requests: [start(4)], pr: docs(4) }),
        comment({ job: 'j5', requests: [start(5)] })
      ],
      OF
    )
    expect(records).toEqual([])
  })

  it('keeps the newest record of a docs pull request, and knows a sweep asked its job to update it', () => {
    const asked = { ...start(9), kind: 'follow-up' as const, prompt: promptHash(UPDATE_PROMPT) }
    const records = recordsIn(
      [
        comment({ job: 'new', requests: [start(5), asked], pr: docs(1) }),
        comment({ job: 'old', requests: [start(1)], pr: docs(1) })
      ],
      OF
    )
    expect(records.map((record) => [record.job, record.askedToUpdate])).toEqual([['new', true]])
  })
})
