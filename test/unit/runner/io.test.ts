import { describe, expect, it } from 'vitest'
import { parseJob } from '../../../src/admin-api/agent-job.ts'
import { resultOutputs, stepOutputs } from '../../../src/report/report.ts'
import { outputWriter, refusedResult, RESULT_KEYS } from '../../../src/runner/io.ts'

function writer() {
  const written: [string, string][] = []
  return { written, outputs: outputWriter((name, value) => written.push([name, value])) }
}

describe('outputWriter', () => {
  it('writes every output, each once, the ones never set as empty', () => {
    const { written, outputs } = writer()
    outputs.set('job-id', 'job-1')
    outputs.finish()
    expect(written).toEqual([
      ['job-id', 'job-1'],
      ['status', ''],
      ['outcome', ''],
      ['prLink', ''],
      ['pr-number', ''],
      ['pr-repository', ''],
      ['job', ''],
      ['branch', ''],
      ['docs-repository', ''],
      ['preview-url', ''],
      ['preview-status', ''],
      ['comment-url', ''],
      ['skip-reason', ''],
      ['action-taken', ''],
      ['requested-by', ''],
      ['guardrail', ''],
      ['grounding', ''],
      ['ungrounded', ''],
      ['check-url', ''],
      ['batch-size', ''],
      ['batch-prs', ''],
      ['batch-from', ''],
      ['batch-to', ''],
      ['sweep', ''],
      ['result', '']
    ])
  })

  it('sets the outputs not set yet to what a step cut short says of them, leaving those it set', () => {
    const { written, outputs } = writer()
    outputs.set('job-id', 'job-1')
    outputs.finish({ outcome: 'cancelled', 'job-id': 'job-2' })
    expect(written.filter(([, value]) => value !== '')).toEqual([
      ['job-id', 'job-1'],
      ['outcome', 'cancelled']
    ])
    expect(written).toHaveLength(25)
  })

  it('keeps every output on one line', () => {
    const { written, outputs } = writer()
    outputs.set('status', 'active\n::error::x\r\u2028y')
    outputs.set('job', '{"model":"a\u2028b\u0085c"}')
    expect(written).toEqual([
      ['status', 'active ::error::x y'],
      ['job', '{"model":"a\\u2028b\\u0085c"}']
    ])
  })

  it('says once that the output file cannot be written, and writes nothing more', () => {
    const failures: unknown[] = []
    let tries = 0
    const outputs = outputWriter(
      () => {
        tries += 1
        throw new Error('Missing file at path: /nowhere/output')
      },
      (error) => failures.push(error)
    )
    outputs.set('job-id', 'job-1')
    outputs.set('status', 'active')
    outputs.finish()
    expect(tries).toBe(1)
    expect(failures).toHaveLength(1)
  })
})

describe('resultOutputs', () => {
  it('hands on the pull request, its number and repository, and the job as JSON', () => {
    const parsed = parseJob(
      {
        id: 'job-1',
        status: 'completed',
        prLink: 'https://github.com/acme/docs/pull/7',
        source: { repository: 'https://github.com/acme/docs', ref: 'mintlify/update-retries' }
      },
      { jobId: 'job-1', githubHosts: new Set(['github.com']) }
    )
    const job = parsed.kind === 'job' ? parsed.job : undefined
    expect(resultOutputs({ kind: 'completed', polls: 2, elapsedMs: 1, faults: 0, job })).toEqual({
      status: 'completed',
      outcome: 'completed',
      prLink: 'https://github.com/acme/docs/pull/7',
      'pr-number': '7',
      'pr-repository': 'acme/docs',
      job: '{"id":"job-1","status":"completed","prLink":"https://github.com/acme/docs/pull/7","source":{"repository":"https://github.com/acme/docs","ref":"mintlify/update-retries"}}',
      branch: 'mintlify/update-retries',
      'docs-repository': 'https://github.com/acme/docs'
    })
  })

  it('leaves them empty when the job was never read', () => {
    expect(resultOutputs({ kind: 'error', reason: 'x', polls: 0, elapsedMs: 1, faults: 0, job: undefined })).toEqual({
      status: '',
      outcome: 'error',
      prLink: '',
      'pr-number': '',
      'pr-repository': '',
      job: '',
      branch: '',
      'docs-repository': ''
    })
  })
})

describe('refusedResult', () => {
  it('holds every key a run that started gives, as an error with no job and no time, the rest null', () => {
    const started = stepOutputs(
      { kind: 'skipped', reason: 'no command', polls: 0, elapsedMs: 0, faults: 0, job: undefined },
      { projectId: 'docs', actionTaken: 'none', jobsStarted: 0, jobId: undefined, sent: undefined },
      {}
    )
    const refused = JSON.parse(refusedResult()) as Record<string, unknown>
    expect(Object.keys(refused)).toEqual(Object.keys(JSON.parse(started.result ?? '{}') as object))
    expect(Object.keys(refused)).toEqual([...RESULT_KEYS])
    expect(refused).toMatchObject({
      outcome: 'error',
      'job-id': null,
      prLink: null,
      'duration-s': 0,
      'jobs-started': 0
    })
  })
})
