import { describe, expect, it } from 'vitest'
import { parseJob, readJobId } from '../../../src/admin-api/agent-job.ts'
import { isTerminal } from '../../../src/text/outcome.ts'

const valid = {
  id: 'job-1',
  status: 'completed',
  source: { repository: 'https://github.com/acme/docs', ref: null },
  model: 'claude',
  prLink: 'https://github.com/acme/docs/pull/3',
  createdAt: '2026-11-22T09:00:00Z',
  archivedAt: null
}
const EXPECTED = { jobId: 'job-1', githubHosts: new Set(['github.com', 'ghes.corp']) }
const parse = (body: unknown) => parseJob(body, EXPECTED)

describe('parseJob', () => {
  it('narrows a contract-shaped body', () => {
    const parsed = parse(valid)
    expect(parsed).toMatchObject({
      kind: 'job',
      job: {
        id: 'job-1',
        status: 'completed',
        repository: 'https://github.com/acme/docs',
        ref: null,
        model: 'claude',
        ignored: []
      }
    })
    expect(parsed.kind === 'job' && parsed.job.pr).toEqual({
      kind: 'link',
      url: new URL('https://github.com/acme/docs/pull/3'),
      pullRequest: { repository: 'acme/docs', owner: 'acme', repo: 'docs', number: 3 }
    })
  })

  it('tolerates absent optional fields and statuses the contract does not list yet', () => {
    expect(parse({ status: 'queued' })).toMatchObject({
      kind: 'job',
      job: { status: 'queued', pr: { kind: 'none' }, id: undefined }
    })
  })

  it.each([' Completed ', 'COMPLETED', 'completed\n'])('reads the status %j as completed', (status) => {
    const parsed = parse({ ...valid, status })
    expect(parsed.kind === 'job' && parsed.job.status).toBe('completed')
  })

  it('leaves out descriptive fields of the wrong type, naming them, and keeps the job', () => {
    const parsed = parse({ ...valid, model: 4, createdAt: {}, source: { repository: ['x'], ref: 7 } })
    expect(parsed).toMatchObject({
      kind: 'job',
      job: { status: 'completed', model: undefined, repository: undefined, ref: undefined }
    })
    expect(parsed.kind === 'job' && parsed.job.ignored).toEqual([
      '"model" (a number)',
      '"source.repository" (an array)',
      '"source.ref" (a number)',
      '"createdAt" (an object)'
    ])
    expect(parse({ ...valid, source: 'github' })).toMatchObject({
      kind: 'job',
      job: { ignored: ['"source" (a string)'] }
    })
  })

  it('accepts a numeric id equal to job-id', () => {
    expect(parseJob({ ...valid, id: 42 }, { ...EXPECTED, jobId: '42' })).toMatchObject({
      kind: 'job',
      job: { id: '42' }
    })
  })

  it.each([
    [null, 'not a JSON object'],
    [[valid], 'not a JSON object'],
    ['completed', 'not a JSON object'],
    [{ ...valid, status: undefined }, 'no "status" string'],
    [{ ...valid, status: 3 }, 'no "status" string'],
    [{ ...valid, status: ' ' }, 'no "status" string'],
    [{ ...valid, prLink: 42 }, '"prLink" is a number, not a string'],
    [{ ...valid, id: null }, '"id" is null, not a string'],
    [{ ...valid, id: 'job-2' }, '"id" is "job-2", not "job-1" (another job\'s answer)']
  ])('refuses %j: %s', (body, reason) => {
    const parsed = parse(body)
    expect(parsed.kind).toBe('not a job')
    if (parsed.kind === 'not a job') expect(parsed.reason).toContain(reason)
  })
})

describe('a pull request link', () => {
  const pr = (prLink: string) => {
    const parsed = parse({ ...valid, prLink })
    return parsed.kind === 'job' ? parsed.job.pr : undefined
  }

  it.each([
    ['https://github.com/acme/docs/pull/17', 'acme/docs', 17],
    ['https://GitHub.com/acme/docs/pull/17/', 'acme/docs', 17],
    ['https://ghes.corp/org/repo.name/pull/3', 'org/repo.name', 3]
  ])('gives the pull request of %s on a GitHub host', (link, repository, number) => {
    expect(pr(link)).toMatchObject({ kind: 'link', pullRequest: { repository, number } })
  })

  it.each([
    'https://github.com.evil.example/octo/docs/pull/17',
    'https://evil.example/github.com/octo/docs/pull/17',
    'https://github.com/acme/docs/issues/17',
    'https://gitlab.com/g/p/-/merge_requests/1',
    'https://github.com/acme/docs/pull/17/files',
    'https://github.com/acme/docs/pull/100000000000000000000000',
    'https://github.com/acme/docs/pull/0',
    'https://github.com/ac%ZZme/docs/pull/17',
    'https://github.com/ac%20me/docs/pull/17',
    'https://github.com/acme/d%0Aocs/pull/17'
  ])('keeps %s as a link with no pull request number or repository', (link) => {
    expect(pr(link)).toMatchObject({ kind: 'link', pullRequest: undefined })
  })

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'not a url'])('drops %s', (link) => {
    expect(pr(link)).toEqual({ kind: 'dropped', text: link, why: { kind: 'dropped', why: 'not an http(s) URL' } })
  })

  it.each([
    [`https://github.com/acme/docs/pull/1?${'x'.repeat(600)}`, 'too long'],
    ['https://docs.example@evil.example/acme/docs/pull/1', 'with a user name or password']
  ])('drops %s, saying why', (link, why) => {
    expect(pr(link)).toMatchObject({ kind: 'dropped', why: { why } })
  })
})

describe('isTerminal', () => {
  it('knows completed, archived and failed end a job, and nothing else does', () => {
    expect(['completed', 'archived', 'failed', 'active', 'queued'].map(isTerminal)).toEqual([
      true,
      true,
      true,
      false,
      false
    ])
  })
})

describe('a job read as sent, shown redacted', () => {
  const redact = (text: string) => text.replaceAll('comp', '***').replaceAll('mint_secret', '***')
  const parseRedacting = (body: unknown) => parseJob(body, { ...EXPECTED, redact })

  it('decides on the status as sent: a secret inside a status word breaks nothing', () => {
    expect(parseRedacting({ ...valid, model: 'a mint_secret b' })).toMatchObject({
      kind: 'job',
      job: { status: 'completed', knownStatus: true, model: 'a *** b' }
    })
  })

  it('keeps a status the contract does not list, redacted, and says it is unknown', () => {
    expect(parseRedacting({ id: 'job-1', status: 'Queued-mint_secret' })).toMatchObject({
      kind: 'job',
      job: { status: 'queued-***', knownStatus: false }
    })
  })

  // The other shapes are percent-encoded into one segment by the client (test/e2e/api-answers.e2e.test.ts).
  it.each(['..', '.', 'job 1', 'job\n1'])('refuses a created id %j, which no encoding keeps in its segment', (id) => {
    const read = readJobId(id, (text) => text)
    expect('problem' in read && read.problem).toMatch(/^"id" /)
  })

  it('takes an id that is one plain path segment', () => {
    expect(readJobId('job-1_A.b~c', (text) => text)).toEqual({ id: 'job-1_A.b~c' })
  })

  it('refuses an id that holds a secret, since an id is used exactly as given', () => {
    expect(parseRedacting({ id: 'job-mint_secret', status: 'active' })).toMatchObject({ kind: 'not a job' })
  })

  it('redacts the job it hands on as JSON, keys too', () => {
    const parsed = parseRedacting({ ...valid, mint_secret: 'x', echo: ['mint_secret'] })
    expect(parsed.kind === 'job' && parsed.job.body).toMatchObject({ '***': 'x', echo: ['***'], id: 'job-1' })
  })
})
