// A create or a follow-up is sent again only when the API surely did not act on it: these tables are that rule.
import { describe, expect, it } from 'vitest'
import { classifySubmit } from '../../../src/admin-api/submit-answer.ts'
import { answer, CANCELLED, CONTEXT, network, TIMEOUT, tunnelRefused } from '../../support/exchanges.ts'

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
    ['201 whose job has no id', answer(201, { status: 'active' }), 'unknown'],
    ['201 with neither id nor status', answer(201, {}), 'unknown'],
    ['201 whose id holds a secret', answer(201, { id: 'x-mint_secret' }), 'unknown'],
    ['201 that is not JSON', answer(201, 'ok'), 'unknown'],
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
    ['500', answer(500), 'unknown'],
    ['502', answer(502), 'unknown'],
    ['a reset once the request was sent', network('ECONNRESET'), 'unknown'],
    ['an error without a code', network(undefined, 'other side closed'), 'unknown'],
    ['no answer in time', TIMEOUT, 'unknown'],
    ['a cancel while it was out', CANCELLED, 'cancelled']
  ] as const)('%s: %s', (_, exchanged, kind) => {
    expect(classifySubmit(exchanged, 30_000, START).kind).toBe(kind)
  })

  it.each([
    ['an empty object', {}, 'accepted'],
    ['the job it was sent to, without a status', { id: 'job-1' }, 'accepted'],
    ['the job it was sent to, with a status', { id: 'job-1', status: 'active' }, 'accepted'],
    ["another job's id", { id: 'job-2' }, 'unknown'],
    ['a list', [], 'unknown']
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
      reason: 'The API refused to send the follow-up to agent job "job-1" (HTTP 409: job is archived).'
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
