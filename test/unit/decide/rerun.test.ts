import { describe, expect, it } from 'vitest'
import { parseJob } from '../../../src/admin-api/agent-job.ts'
import type { PollResult } from '../../../src/admin-api/job-answers.ts'
import { type EarlierAttempt, findEarlierAttempt, rerunOf } from '../../../src/decide/rerun.ts'
import type { StoredComment as TrackedComment } from '../../../src/github/comment-store.ts'
import { type Submission, UNKNOWN_JOB } from '../../../src/github/tracking-record.ts'
import { FOLLOW_UP_SETTLE_MS } from '../../../src/wait/retry.ts'

const NOW = 10_000_000

function request(overrides: Partial<Submission> = {}): Submission {
  return {
    kind: 'start',
    run: '42',
    attempt: 1,
    prompt: 'hash',
    line: 'Document it',
    project: 'docs',
    at: NOW - 600_000,
    ...overrides
  }
}

function comment(job: string, ...requests: Submission[]): TrackedComment {
  return { id: 1, url: undefined, state: { job, requests } }
}

function read(status: string, prLink: string | null = null): PollResult & { kind: 'job' } {
  const parsed = parseJob({ id: 'job-1', status, prLink }, { jobId: 'job-1', githubHosts: new Set() })
  if (parsed.kind !== 'job') throw new Error(parsed.reason)
  return parsed
}

const WANTED = { run: '42', attempt: 3, step: 'docs/agent', prompt: 'hash', project: 'docs', job: undefined }

describe('findEarlierAttempt', () => {
  it("finds this run's latest attempt that sent the same prompt to the same project, across comments", () => {
    const first = comment('job-1', request({ attempt: 1 }))
    const second = comment('job-2', request({ attempt: 2 }))
    expect(findEarlierAttempt([second, first], WANTED)).toEqual({
      comment: second,
      submission: second.state.requests[0]
    })
  })

  it.each([
    ['another run', request({ run: '41' })],
    ['another step of the same run', request({ step: 'docs/second' })],
    ['another prompt', request({ prompt: 'other' })],
    ['another project', request({ project: 'other' })],
    ['this attempt', request({ attempt: 3 })],
    ['a later attempt (a forged record)', request({ attempt: 9 })]
  ])('ignores a request of %s', (_, other) => {
    expect(findEarlierAttempt([comment('job-1', other)], WANTED)).toBeUndefined()
  })

  it('takes a request recorded before steps were for any step', () => {
    expect(findEarlierAttempt([comment('job-1', request())], WANTED)?.comment.state.job).toBe('job-1')
  })

  it('between two requests of the same attempt, takes the one in the comment updated last', () => {
    const older = comment('job-1', request())
    const newer = comment('job-2', request())
    expect(findEarlierAttempt([older, newer], WANTED)?.comment.state.job).toBe('job-2')
  })

  it('with job-id, looks only at that job', () => {
    const tracked = [comment('job-1', request()), comment('job-2', request({ attempt: 2 }))]
    expect(findEarlierAttempt(tracked, { ...WANTED, job: 'job-1' })?.comment.state.job).toBe('job-1')
  })
})

describe('rerunOf', () => {
  /** `timed: false`: a request recorded by a version that kept no time. */
  const earlier = (job: string, overrides: Partial<Submission> = {}, timed = true): EarlierAttempt => {
    const { at, ...untimed } = request(overrides)
    const made: Submission = timed && at !== undefined ? { ...untimed, at } : untimed
    return { comment: comment(job, made), submission: made }
  }

  it.each([
    ['a start whose job was never learned', earlier(UNKNOWN_JOB, { unsure: true }), undefined, 'send nothing'],
    ['a job still active', earlier('job-1'), read('active'), 'wait'],
    [
      'a job that could not be read for now',
      earlier('job-1'),
      { kind: 'transient', reason: 'HTTP 502', fault: 'server' },
      'wait'
    ],
    ['a job that failed', earlier('job-1'), read('failed'), 'send again'],
    ['a job that completed without a pull request', earlier('job-1'), read('completed'), 'send again'],
    [
      'a job that completed with a pull request',
      earlier('job-1'),
      read('completed', 'https://github.com/acme/docs/pull/7'),
      'wait'
    ],
    [
      'a job archived after its pull request',
      earlier('job-1'),
      read('archived', 'https://github.com/acme/docs/pull/7'),
      'send again'
    ],
    [
      'a job that is gone (it may still run)',
      earlier('job-1'),
      { kind: 'not found', reason: 'x', sinceAccepted: 'y', described: 'HTTP 404' },
      'send nothing'
    ],
    ['a job no longer readable', earlier('job-1'), { kind: 'permanent', reason: 'HTTP 410' }, 'send nothing'],
    ['an unsure request whose job ended', earlier('job-1', { unsure: true }), read('failed'), 'send nothing'],
    ['an unsure request whose job is still active', earlier('job-1', { unsure: true }), read('active'), 'wait'],
    [
      'a follow-up sent moments ago, the job still showing its old end',
      earlier('job-1', { kind: 'follow-up', at: NOW - 5000 }),
      read('completed'),
      'wait'
    ],
    [
      'a follow-up sent long ago, the job ended',
      earlier('job-1', { kind: 'follow-up', at: NOW - FOLLOW_UP_SETTLE_MS }),
      read('completed'),
      'send again'
    ],
    [
      'a follow-up of a version that recorded no time, the job ended',
      earlier('job-1', { kind: 'follow-up' }, false),
      read('completed'),
      'send again'
    ]
  ] as const)('%s: %s', (_, attempt, answer, verdict) => {
    expect(rerunOf(attempt, answer, NOW).kind).toBe(verdict)
  })

  it('says why nothing is sent, and how to send the prompt anyway', () => {
    const verdict = rerunOf(earlier('job-1', { unsure: true }), read('failed'), NOW)
    expect(verdict).toEqual({
      kind: 'send nothing',
      reason:
        'An earlier attempt of this run sent this prompt to agent job "job-1", which is now failed, and could not tell whether it arrived. Nothing was sent, so that nothing runs twice. Look on the Mintlify dashboard; to send the prompt anyway, start a new run of the workflow instead of re-running this one.'
    })
  })

  it('takes the result of a recent follow-up whose end the earlier attempt recorded, as it does for a start', () => {
    const sent = request({ kind: 'follow-up', at: NOW - 5000 })
    const recorded = {
      comment: { id: 1, url: undefined, state: { job: 'job-1', requests: [sent], ended: 'completed' } },
      submission: sent
    }
    const verdict = rerunOf(recorded, read('completed', 'https://github.com/acme/docs/pull/7'), NOW)
    expect(verdict).toMatchObject({ kind: 'wait', jobId: 'job-1', followedUp: false })
    expect(verdict.kind === 'wait' && verdict.note).toContain('which completed with a pull request: taking its result')
  })

  it('waits for a recent follow-up as a follow-up, so its old end does not count', () => {
    const verdict = rerunOf(earlier('job-1', { kind: 'follow-up', at: NOW - 5000 }), read('completed'), NOW)
    expect(verdict).toMatchObject({ kind: 'wait', jobId: 'job-1', followedUp: true })
    expect(verdict.kind === 'wait' && verdict.note).toContain('sent this prompt to agent job "job-1" 5s ago')
  })
})
