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
    ['302', answer(302, '', { location: 'https://elsewhere.test/' }), 'permanent'],
    ['307', answer(307, '', { location: 'https://elsewhere.test/' }), 'permanent'],
    ['308', answer(308, '', { location: 'https://elsewhere.test/' }), 'permanent'],
    ['400', answer(400, { error: 'bad' }), 'permanent'],
    ['401', answer(401, { error: 'Invalid API key' }), 'permanent'],
    ['403', answer(403), 'permanent'],
    ['404', answer(404, { error: 'Agent job not found' }), 'not found'],
    ['405', answer(405, { error: 'Method Not Allowed' }), 'permanent'],
    ['410', answer(410), 'permanent'],
    ['418', answer(418, { error: 'refused with 418' }), 'permanent'],
    ['422', answer(422, { error: 'refused with 422' }), 'permanent'],
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
      'The API refused the key (HTTP 401: Invalid API key): it is not a valid admin API key (one starts with "mint_"), or it has expired (a key expires after the lifetime chosen when it was made, 90 days by default). Admin API keys are made on the dashboard\'s API keys page, under organization settings'
    ],
    [
      answer(307, '', { location: 'https://x.test/?key=mint_secret' }),
      'a redirect to https://x.test/?key=***. Redirects are not followed'
    ],
    [answer(422, { error: 'nope' }), 'The API rejected the request (HTTP 422: nope); retrying cannot help.'],
    [
      tunnelRefused(407),
      'Could not read the job: the proxy at http://proxy.test:3128 refused to open a tunnel to the API (HTTP 407: proxy authentication required).'
    ],
    [
      answer(403, { error: 'Request from IP 20.1.2.3 is not in the allowlist' }),
      "the key's IP allowlist does not include this runner's address, and a GitHub-hosted runner's address changes from run to run: run this step on a self-hosted runner"
    ],
    [
      answer(403, { error: 'Your plan does not include API access' }),
      'your Mintlify plan does not include API access. The admin API and the agent need a Pro or Enterprise plan.'
    ],
    [answer(403, { error: 'Forbidden' }), "the key is not allowed to read this project's jobs"],
    [
      answer(405, '<html>Method Not Allowed</html>', { 'content-type': 'text/html' }),
      'base-url (https://api.mintlify.com/) does not look like the Mintlify admin API: GET https://api.mintlify.com/v2/agent/docs/job/job-1 answered HTTP 405 (method not allowed)'
    ],
    [
      network('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
      'Could not read the job: the TLS handshake with api.mintlify.com failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT). The handshake failed before any byte of the request was sent, and trying again cannot change it'
    ]
  ])('says what to change when trying again cannot help (%#)', (exchanged, reason) => {
    const classified = classifyPoll(exchanged, 30_000, CONTEXT)
    expect(classified.kind === 'permanent' && classified.reason).toContain(reason)
  })

  it('says a key that stopped working mid-run apart from one refused from the start', () => {
    const classified = classifyPoll(answer(401, { error: 'API key expired' }), 30_000, CONTEXT)
    expect(classified).toMatchObject({ kind: 'permanent', reason: expect.stringContaining('it has expired') as string })
    expect(classified.kind === 'permanent' && classified.midRun).toContain(
      'The API stopped accepting the key during this step (HTTP 401: API key expired), after it had answered earlier polls'
    )
  })

  it.each([
    ['a JSON job', 200, JOB, 'job'],
    ['a JSON error', 404, { error: 'Agent job not found' }, 'not found']
  ] as const)('reads %s labelled text/html by its body, as the API it may be', (_, status, body, kind) => {
    const labelled = answer(status, body, { 'content-type': 'text/html; charset=utf-8' })
    expect(classifyPoll(labelled, 30_000, { ...CONTEXT, neverAnswered: true }).kind).toBe(kind)
  })

  it.each([
    ['an HTML page', answer(200, '<!doctype html><title>Docs</title>', { 'content-type': 'text/html' })],
    ['an HTML page without its type', answer(200, '\n  <html><body>Docs</body></html>')],
    ['a page of text an HTML type labels', answer(200, 'Welcome to our docs', { 'content-type': 'text/html' })],
    ['an HTML 404', answer(404, '<html>Not found</html>')]
  ])('takes %s for base-url not being the API, until the API has answered once', (_, page) => {
    expect(classifyPoll(page, 30_000, { ...CONTEXT, neverAnswered: true })).toMatchObject({
      kind: 'permanent',
      reason: expect.stringContaining(
        'base-url (https://api.mintlify.com/) does not look like the Mintlify admin API'
      ) as string
    })
    expect(classifyPoll(page, 30_000, CONTEXT).kind).not.toBe('permanent')
    // An outage's error page is the API's own.
    expect(
      classifyPoll(answer(502, '<html>Bad gateway</html>'), 30_000, { ...CONTEXT, neverAnswered: true }).kind
    ).toBe('transient')
  })

  it('marks a refused connection as base-url unreached only until the API has answered once', () => {
    expect(classifyPoll(network('ECONNREFUSED'), 30_000, { ...CONTEXT, neverAnswered: true })).toMatchObject({
      kind: 'transient',
      unreached: 'connection refused (ECONNREFUSED)'
    })
    expect(classifyPoll(network('ECONNREFUSED'), 30_000, CONTEXT)).not.toHaveProperty('unreached')
  })

  it('names the proxy that closed the connection, as a fault worth trying again', () => {
    expect(
      classifyPoll(network('UND_ERR_PRX_CONN', 'Proxy Connection failed', 'http://proxy.test:3128'), 1000, CONTEXT)
    ).toEqual({
      kind: 'transient',
      reason:
        'the proxy at http://proxy.test:3128 closed the connection before opening a tunnel to the API (UND_ERR_PRX_CONN)',
      fault: 'network'
    })
  })

  it("reads a Retry-After date against the answer's own Date, not the runner's clock", () => {
    const serverNow = Date.now() - 3_600_000
    const headers = {
      date: new Date(serverNow).toUTCString(),
      'retry-after': new Date(serverNow + 5000).toUTCString()
    }
    const classified = classifyPoll(answer(429, {}, headers), 30_000, CONTEXT)
    expect(classified).toMatchObject({ kind: 'transient', retryAfterMs: 5000 })
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

  it.each([
    [answer(504, 'upstream timed out'), 'HTTP 504'],
    [answer(200, '{"status": "act', { 'content-type': 'application/json' }), 'HTTP 200 with a body that is not JSON'],
    [
      answer(200, { status: 'active', prLink: 7 }),
      'HTTP 200 with a body that is not a job: "prLink" is a number, not a string'
    ]
  ])('says a transient answer as the log names it (%#)', (exchanged, reason) => {
    const classified = classifyPoll(exchanged, 30_000, CONTEXT)
    expect(classified).toMatchObject({ kind: 'transient' })
    expect(classified.kind === 'transient' && classified.reason).toBe(reason)
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
    ['201 whose id would move the request path', answer(201, { id: '..', status: 'active' }), 'unsure'],
    ['201 whose id has a line break', answer(201, { id: 'job-1\n::error::forged', status: 'active' }), 'unsure'],
    ['201 whose id is a number too large', answer(201, '{"id": 12345678901234567890, "status": "active"}'), 'unsure'],
    ['201 that is not JSON', answer(201, 'ok'), 'unsure'],
    ['429', answer(429, { error: 'Rate limit exceeded' }), 'not sent'],
    ['connection refused', network('ECONNREFUSED'), 'not sent'],
    ['a temporary DNS failure', network('EAI_AGAIN'), 'not sent'],
    ['a connect timeout', network('UND_ERR_CONNECT_TIMEOUT'), 'not sent'],
    ['a proxy that will not tunnel', tunnelRefused(503), 'not sent'],
    ['a proxy that wants credentials', tunnelRefused(407), 'refused'],
    [
      'a proxy that closes the connection',
      network('UND_ERR_PRX_CONN', 'Proxy Connection failed', 'http://p.test:8080'),
      'not sent'
    ],
    ['a certificate not trusted', network('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify'), 'refused'],
    ['a host that does not resolve', network('ENOTFOUND'), 'refused'],
    ['a web page', answer(200, '<html><body>Welcome</body></html>', { 'content-type': 'text/html' }), 'unsure'],
    ['405', answer(405, 'Method Not Allowed'), 'refused'],
    ['403', answer(403, { error: 'Forbidden' }), 'refused'],
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

  it.each([
    [
      answer(401, { error: 'Invalid API key' }),
      'refused',
      'The API refused the key (HTTP 401: Invalid API key): it is not a valid admin API key (one starts with "mint_"), or it has expired (a key expires after the lifetime chosen when it was made, 90 days by default). Admin API keys are made on the dashboard\'s API keys page'
    ],
    [
      answer(405, '<html>Method Not Allowed</html>', { 'content-type': 'text/html' }),
      'refused',
      'base-url (https://api.mintlify.com/) does not look like the Mintlify admin API: POST https://api.mintlify.com/v2/agent/docs/job answered HTTP 405 (method not allowed)'
    ],
    [
      answer(201, { id: 'job-1\n::error::forged', status: 'active' }),
      'unsure',
      'HTTP 201 with a body that is not a job: "id" must not contain spaces or control characters'
    ]
  ] as const)('says why a start was refused or may have landed (%#)', (exchanged, kind, reason) => {
    const classified = classifySubmit(exchanged, 30_000, START)
    expect(classified.kind).toBe(kind)
    expect('reason' in classified && classified.reason).toContain(reason)
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

  it('takes a new job labelled text/html for the job it is, judged by its body', () => {
    const labelled = answer(201, { id: 'job-9', status: 'active' }, { 'content-type': 'text/html' })
    expect(classifySubmit(labelled, 30_000, START)).toMatchObject({ kind: 'accepted', jobId: 'job-9' })
  })

  it('says what the answer was when base-url does not look like the API, yet never sends a success again', () => {
    expect(classifySubmit(answer(200, '<!doctype html>', { 'content-type': 'text/html' }), 30_000, START)).toEqual({
      kind: 'unsure',
      notTheApi: true,
      reason:
        "base-url (https://api.mintlify.com/) does not look like the Mintlify admin API: POST https://api.mintlify.com/v2/agent/docs/job answered HTTP 200 with an HTML page, where the API answers JSON. Set base-url to the admin API's root (https://api.mintlify.com, the default)."
    })
  })

  it.each([
    [
      { error: 'This key has read access only' },
      'the key is not allowed to. A key limited to read can follow a job but not start one'
    ],
    [{ error: 'IP address not allowed' }, "the key's IP allowlist does not include this runner's address"],
    [{ error: 'Your current plan does not include API access' }, 'need a Pro or Enterprise plan']
  ])("reads a 403 to a start by the API's own words: %j", (body, reason) => {
    const classified = classifySubmit(answer(403, body), 30_000, START)
    expect(classified.kind === 'refused' && classified.reason).toContain(
      `The API refused to start the agent job (HTTP 403: ${body.error})`
    )
    expect(classified.kind === 'refused' && classified.reason).toContain(reason)
  })

  it('marks a refused connection as base-url unreached until the API has answered once', () => {
    expect(classifySubmit(network('ECONNREFUSED'), 30_000, { ...START, neverAnswered: true })).toEqual({
      kind: 'not sent',
      reason: 'connection refused (ECONNREFUSED)',
      unreached: 'connection refused (ECONNREFUSED)'
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
