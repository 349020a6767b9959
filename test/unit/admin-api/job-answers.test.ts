import { describe, expect, it } from 'vitest'
import { answer, CANCELLED, CONTEXT, network, TIMEOUT, tunnelRefused } from '../../support/exchanges.ts'
import { classifyPoll, classifySubmit } from '../../../src/admin-api/job-answers.ts'
import { quotaWaitMs } from '../../../src/admin-api/answer.ts'

const JOB = { id: 'job-1', status: 'active' }

describe('classifyPoll', () => {
  it.each([
    ['200 with the job', answer(200, JOB), 'job'],
    ['200 that is not JSON', answer(200, '<html>'), 'transient'],
    ['200 with another job', answer(200, { id: 'job-2', status: 'active' }), 'transient'],
    ['200 without a status', answer(200, { id: 'job-1' }), 'transient'],
    ['408', answer(408), 'transient'],
    ['425', answer(425), 'transient'],
    ['429', answer(429, { error: 'slow down' }), 'transient'],
    ['500', answer(500), 'transient'],
    ['503', answer(503), 'transient'],
    ['timeout', TIMEOUT, 'transient'],
    ['connection refused', network('ECONNREFUSED'), 'transient'],
    ['connection reset', network('ECONNRESET'), 'transient'],
    ['a proxy that will not tunnel', tunnelRefused(502), 'transient'],
    ['a proxy that wants credentials', tunnelRefused(407), 'permanent'],
    ['301', answer(301, '', { location: 'https://elsewhere.test/' }), 'permanent'],
    ['400', answer(400, { error: 'bad' }), 'permanent'],
    ['401', answer(401, { error: 'Invalid API key' }), 'permanent'],
    ['403', answer(403), 'permanent'],
    ['404', answer(404, { error: 'Agent job not found' }), 'not found'],
    ['410', answer(410), 'permanent'],
    ['cancelled', CANCELLED, 'cancelled']
  ] as const)('%s: %s', (_, exchanged, kind) => {
    expect(classifyPoll(exchanged, 30_000, CONTEXT).kind).toBe(kind)
  })

  it('marks a host that does not resolve, so the wait can stop before the API ever answered', () => {
    expect(classifyPoll(network('ENOTFOUND'), 30_000, CONTEXT)).toEqual({
      kind: 'transient',
      reason: 'host not found (ENOTFOUND)',
      fault: 'network',
      hostNotFound: 'The API host could not be found (host not found (ENOTFOUND)).'
    })
  })

  it('reads Retry-After, in seconds or as a date', () => {
    expect(classifyPoll(answer(429, {}, { 'retry-after': '7' }), 30_000, CONTEXT)).toMatchObject({ retryAfterMs: 7000 })
    const inAMinute = new Date(Date.now() + 60_000).toUTCString()
    const dated = classifyPoll(answer(503, {}, { 'retry-after': inAMinute }), 30_000, CONTEXT)
    expect(dated).toMatchObject({ kind: 'transient' })
    expect(dated.kind === 'transient' && dated.retryAfterMs).toBeGreaterThan(55_000)
  })

  it.each([
    [
      answer(401, { error: 'Invalid API key' }),
      'The API refused the key (HTTP 401: Invalid API key). Check that the api-key secret holds a Mintlify admin API key'
    ],
    [
      answer(307, '', { location: 'https://x.test/?key=mint_secret' }),
      'a redirect to https://x.test/?key=***. Redirects are not followed'
    ],
    [answer(422, { error: 'nope' }), 'The API rejected the request (HTTP 422: nope); retrying cannot help.'],
    [
      tunnelRefused(407),
      'Could not read the job: the proxy refused to open a tunnel to the API (HTTP 407: proxy authentication required).'
    ]
  ])('says what to change when trying again cannot help (%#)', (exchanged, reason) => {
    const classified = classifyPoll(exchanged, 30_000, CONTEXT)
    expect(classified.kind === 'permanent' && classified.reason).toContain(reason)
  })

  it('reads a 404 two ways: for a job named by job-id, and for one the API has just accepted', () => {
    expect(classifyPoll(answer(404, { error: 'Agent job not found' }), 30_000, CONTEXT)).toEqual({
      kind: 'not found',
      reason:
        'No agent job "job-1" was found in project "docs" (HTTP 404: Agent job not found from GET https://api.mintlify.com/v2/agent/docs/job/job-1). Check job-id (the id the job-creating step returned), project-id (from the dashboard\'s API keys page), and that base-url is the API\'s root.',
      sinceAccepted:
        'The API accepted the request for agent job "job-1" but then answered HTTP 404: Agent job not found for it, past the time a new job takes to show. The job may still be running: look for it on the Mintlify dashboard.',
      described: 'HTTP 404: Agent job not found'
    })
  })

  it.each([
    [answer(503), 'server'],
    [answer(429), 'rate limited'],
    [answer(200, { id: 'job-1' }), 'not a job'],
    [TIMEOUT, 'network'],
    [network('ECONNRESET'), 'network']
  ])('names the kind of a transient fault, for the advice when faults outlast the timeout (%#)', (exchanged, fault) => {
    expect(classifyPoll(exchanged, 30_000, CONTEXT)).toMatchObject({ kind: 'transient', fault })
  })

  it('decides on the job as sent, even when a secret is part of a word in it, and redacts only what is shown', () => {
    const context = { ...CONTEXT, redact: (text: string) => text.replaceAll('comp', '***') }
    const classified = classifyPoll(
      answer(200, { id: 'job-1', status: 'completed', model: 'composer' }),
      30_000,
      context
    )
    expect(classified).toMatchObject({ kind: 'job', job: { status: 'completed', model: '***oser' } })
  })

  it("shows an error body's details after its error, redacted and bounded", () => {
    const body = {
      error: 'Invalid request',
      details: { prompt: 'too long', echo: 'mint_secret', pad: 'x'.repeat(500) }
    }
    const classified = classifyPoll(answer(422, body), 30_000, CONTEXT)
    const reason = classified.kind === 'permanent' ? classified.reason : ''
    expect(reason).toContain('HTTP 422: Invalid request (details: {"prompt":"too long","echo":"***","pad":"xxx')
    expect(reason).not.toContain('mint_secret')
    expect(reason.length).toBeLessThan(500)
  })

  it('names the fault of a transient answer, redacted and on one line', () => {
    expect(classifyPoll(answer(429, { error: 'limit\nfor mint_secret' }), 30_000, CONTEXT)).toEqual({
      kind: 'transient',
      reason: 'rate limited (HTTP 429: limit for ***)',
      fault: 'rate limited'
    })
    expect(classifyPoll(TIMEOUT, 5000, CONTEXT)).toEqual({
      kind: 'transient',
      reason: 'no complete answer within 5000ms (request-timeout)',
      fault: 'network'
    })
  })
})

const START = {
  ...CONTEXT,
  jobId: undefined,
  what: 'start the agent job',
  target: new URL('https://api.mintlify.com/v2/agent/docs/job')
}
const FOLLOW_UP = { ...CONTEXT, what: 'send the follow-up to agent job "job-1"' }

describe('classifySubmit', () => {
  it.each([
    ['201 with the new job', answer(201, { id: 'job-9', status: 'active' }), 'accepted'],
    ["201 with only the new job's id", answer(201, { id: 'job-9' }), 'accepted'],
    ['201 whose job has no id', answer(201, { status: 'active' }), 'unsure'],
    ['201 with neither id nor status', answer(201, {}), 'unsure'],
    ['201 whose id holds a secret', answer(201, { id: 'x-mint_secret' }), 'unsure'],
    ['201 that is not JSON', answer(201, 'ok'), 'unsure'],
    ['429', answer(429, { error: 'Rate limit exceeded' }), 'not sent'],
    ['connection refused', network('ECONNREFUSED'), 'not sent'],
    ['a temporary DNS failure', network('EAI_AGAIN'), 'not sent'],
    ['a connect timeout', network('UND_ERR_CONNECT_TIMEOUT'), 'not sent'],
    ['a proxy that will not tunnel', tunnelRefused(503), 'not sent'],
    ['a proxy that wants credentials', tunnelRefused(407), 'refused'],
    ['a host that does not resolve', network('ENOTFOUND'), 'refused'],
    ['400', answer(400, { error: 'prompt must be a string of at least 1 character' }), 'refused'],
    ['401', answer(401), 'refused'],
    ['404', answer(404, { error: 'Project not found' }), 'refused'],
    ['302', answer(302), 'refused'],
    ['500', answer(500), 'unsure'],
    ['502', answer(502), 'unsure'],
    ['a reset once the request was sent', network('ECONNRESET'), 'unsure'],
    ['an error without a code', network(undefined, 'other side closed'), 'unsure'],
    ['no answer in time', TIMEOUT, 'unsure'],
    ['a cancel while it was out', CANCELLED, 'cancelled']
  ] as const)('%s: %s', (_, exchanged, kind) => {
    expect(classifySubmit(exchanged, 30_000, START).kind).toBe(kind)
  })

  it.each([
    ['an empty object', {}, 'accepted'],
    ['the job it was sent to, without a status', { id: 'job-1' }, 'accepted'],
    ['the job it was sent to, with a status', { id: 'job-1', status: 'active' }, 'accepted'],
    ["another job's id", { id: 'job-2' }, 'unsure'],
    ['a list', [], 'unsure']
  ])('takes a 2xx to a follow-up holding %s as %s', (_, body, kind) => {
    expect(classifySubmit(answer(200, body), 30_000, FOLLOW_UP)).toMatchObject({
      kind,
      ...(kind === 'accepted' ? { jobId: 'job-1' } : {})
    })
  })

  it('keeps the id of a new job answered without a status, and waits for it', () => {
    expect(classifySubmit(answer(201, { id: 'job_9' }), 30_000, START)).toEqual({
      kind: 'accepted',
      jobId: 'job_9',
      job: undefined
    })
  })

  it("keeps the API's own words for a refusal", () => {
    expect(classifySubmit(answer(409, { error: 'job is archived' }), 30_000, FOLLOW_UP)).toEqual({
      kind: 'refused',
      reason: 'The API refused to send the follow-up to agent job "job-1" (HTTP 409: job is archived).',
      status: 409
    })
  })

  it.each([
    [
      START,
      'Could not start the agent job: project "docs" was not found (HTTP 404: Project not found from POST https://api.mintlify.com/v2/agent/docs/job). Check project-id, and that base-url is the API\'s root.'
    ],
    [
      FOLLOW_UP,
      'Could not send the follow-up to agent job "job-1": no agent job "job-1" was found in project "docs" (HTTP 404: Project not found from POST https://api.mintlify.com/v2/agent/docs/job/job-1). Check project-id and job-id, and that base-url is the API\'s root.'
    ]
  ])('names what was not found on a 404 (%#)', (context, reason) => {
    expect(classifySubmit(answer(404, { error: 'Project not found' }), 30_000, context)).toEqual({
      kind: 'refused',
      reason
    })
  })

  it('passes on Retry-After and marks the rate limit', () => {
    expect(
      classifySubmit(answer(429, { error: 'Rate limit exceeded' }, { 'retry-after': '3' }), 30_000, START)
    ).toEqual({
      kind: 'not sent',
      reason: 'rate limited (HTTP 429: Rate limit exceeded)',
      retryAfterMs: 3000,
      rateLimited: true
    })
  })
})

describe('quotaWaitMs', () => {
  const now = Date.parse('2026-11-24T10:00:00Z')
  it.each([
    [{ 'retry-after': '30' }, 30_000],
    [{ 'retry-after': 'Tue, 24 Nov 2026 10:01:00 GMT' }, 60_000],
    [{ 'ratelimit-reset': '120' }, 120_000],
    [{ 'x-ratelimit-reset': String(now / 1000 + 3600) }, 3_600_000],
    [{ 'x-ratelimit-reset': '45' }, 45_000],
    [{ 'retry-after': '5', 'x-ratelimit-reset': '999' }, 5000],
    [{ 'x-ratelimit-reset': 'soon' }, undefined],
    [{}, undefined]
  ])('reads %j as a wait of %s ms', (headers, waitMs) => {
    expect(quotaWaitMs(headers, now)).toBe(waitMs)
  })
})
