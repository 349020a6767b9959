import { describe, expect, it } from 'vitest'
import { parseJob } from '../../../src/admin-api/agent-job.ts'
import type { FailableOutcome } from '../../../src/runner/settings/settings.ts'
import { type StepResult, verdictOf } from '../../../src/step/verdict.ts'

function job(status: string, prLink: string | null = null) {
  const parsed = parseJob({ id: 'job-1', status, prLink }, { jobId: 'job-1', githubHosts: new Set(['github.com']) })
  return parsed.kind === 'job' ? parsed.job : undefined
}
const stats = { polls: 4, elapsedMs: 125_000, faults: 0 }
const verdict = (result: StepResult, failOn: FailableOutcome[] = ['failed', 'timeout']) =>
  verdictOf(result, { jobId: 'job-1', timeoutMs: 1_800_000, failOn: new Set(failOn) })

describe('verdictOf', () => {
  it.each([
    [
      { ...stats, kind: 'completed', job: job('completed', 'https://github.com/a/b/pull/1') },
      false,
      'Agent job "job-1" completed after 2m 5s (4 polls): the agent opened https://github.com/a/b/pull/1.'
    ],
    [
      { ...stats, kind: 'completed', job: job('completed') },
      false,
      'Agent job "job-1" completed after 2m 5s (4 polls): the agent changed no files, so no pull request was opened.'
    ],
    [
      { ...stats, kind: 'failed', job: job('failed') },
      true,
      'Agent job "job-1" failed after 2m 5s (4 polls): the agent hit an unrecoverable error. Open the job on the Mintlify dashboard to see why.'
    ],
    [
      { ...stats, kind: 'archived', job: job('archived') },
      false,
      'Agent job "job-1" was archived after 2m 5s (4 polls).'
    ],
    [
      { ...stats, kind: 'timeout', job: job('active'), lastFault: undefined, consecutiveFaults: 0 },
      true,
      'Agent job "job-1" was still active when the timeout of 30m ran out after 2m 5s (4 polls). Raise timeout to wait longer; the job itself goes on.'
    ],
    [
      { ...stats, kind: 'started', job: job('active') },
      false,
      'Agent job "job-1" is active; not waiting for it (wait: false).'
    ],
    [{ ...stats, kind: 'error', job: undefined, reason: 'HTTP 404.' }, true, 'HTTP 404.'],
    [
      { ...stats, kind: 'cancelled', job: job('active') },
      true,
      'Cancelled while waiting for Agent job "job-1" after 2m 5s (4 polls); the job itself goes on.'
    ]
  ] as const)('%#: fails %s and says what happened', (result, fails, message) => {
    expect(verdict(result)).toEqual({ fails, message })
  })

  it.each([
    ['completed', ['completed'], true],
    ['archived', ['archived'], true],
    ['failed', [], false],
    ['timeout', [], false]
  ] as const)('fails on %s only when fail-on names it', (kind, failOn, fails) => {
    const result: StepResult =
      kind === 'timeout'
        ? { ...stats, kind, job: job('active'), lastFault: undefined, consecutiveFaults: 0 }
        : { ...stats, kind, job: job(kind) }
    expect(verdict(result, [...failOn]).fails).toBe(fails)
  })

  it('always fails a timeout in which the job could never be read, saying what kept failing', () => {
    const result: StepResult = {
      ...stats,
      kind: 'timeout',
      job: undefined,
      lastFault: 'HTTP 503',
      consecutiveFaults: 4
    }
    expect(verdict(result, [])).toEqual({
      fails: true,
      message:
        'Agent job "job-1" could not be read within the timeout of 30m: HTTP 503 (4 attempts). Check that base-url is reachable from this runner (and the proxy settings), or raise timeout.'
    })
  })
})
