// The batch on record whose end the record does not say (its run ended first): what a read of its job means.
import { describe, expect, it } from 'vitest'
import { parseJob } from '../../../../src/admin-api/agent-job.ts'
import type { PollResult } from '../../../../src/admin-api/job-answers.ts'
import { judgePendingJob } from '../../../../src/modes/batch/batch.ts'

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
