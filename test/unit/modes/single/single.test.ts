import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../../sim/settings.ts'
import { chooseTarget } from '../../../../src/modes/single/single.ts'
import type { StoredComment as TrackedComment } from '../../../../src/github/comment-store.ts'
import { UNKNOWN_JOB } from '../../../../src/github/tracking-record.ts'

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
