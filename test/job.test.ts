import { describe, expect, it } from 'vitest'
import { isTerminal, parseJob } from '../src/job.ts'

const valid = {
  id: 'job-1',
  status: 'completed',
  source: { repository: 'https://github.com/acme/docs', ref: null },
  model: 'claude',
  prLink: 'https://github.com/acme/docs/pull/3',
  createdAt: '2026-11-22T09:00:00Z',
  archivedAt: null
}

describe('parseJob', () => {
  it('narrows a contract-shaped body', () => {
    const parsed = parseJob(valid)
    expect(parsed).toMatchObject({
      kind: 'job',
      job: { id: 'job-1', status: 'completed', repository: 'https://github.com/acme/docs', ref: null, model: 'claude' }
    })
    expect(parsed.kind === 'job' && parsed.job.pr).toEqual({
      kind: 'link',
      url: new URL('https://github.com/acme/docs/pull/3'),
      pullRequest: { repository: 'acme/docs', number: 3 }
    })
  })

  it('tolerates absent optional fields and statuses the contract does not list yet', () => {
    expect(parseJob({ status: 'queued' })).toMatchObject({
      kind: 'job',
      job: { status: 'queued', pr: { kind: 'none' }, id: undefined }
    })
  })

  it.each([
    [null, 'not a JSON object'],
    [[valid], 'not a JSON object'],
    ['completed', 'not a JSON object'],
    [{ ...valid, status: undefined }, 'no "status" string'],
    [{ ...valid, status: 3 }, 'no "status" string'],
    [{ ...valid, status: ' ' }, 'no "status" string'],
    [{ ...valid, prLink: 42 }, '"prLink" has the wrong type'],
    [{ ...valid, id: null }, '"id" has the wrong type'],
    [{ ...valid, source: 'github' }, '"source" is not an object'],
    [{ ...valid, source: { repository: ['x'] } }, '"source.repository" has the wrong type']
  ])('refuses %j: %s', (body, reason) => {
    const parsed = parseJob(body)
    expect(parsed.kind).toBe('invalid')
    if (parsed.kind === 'invalid') expect(parsed.reason).toContain(reason)
  })
})

describe('isTerminal', () => {
  it('knows completed, archived and failed end a job, and nothing else does', () => {
    expect(['completed', 'archived', 'failed', 'active', 'Completed', 'queued'].map(isTerminal)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false
    ])
  })
})
