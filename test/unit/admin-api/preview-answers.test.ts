import { describe, expect, it } from 'vitest'
import { answer, CANCELLED, CONTEXT, network, TIMEOUT, tunnelRefused } from '../../support/exchanges.ts'
import { classifyBuildPoll, classifyTrigger } from '../../../src/admin-api/preview-answers.ts'

describe('classifyTrigger', () => {
  it.each([
    [
      '202 with a status to follow',
      answer(202, { statusId: 'st_1', previewUrl: 'https://acme-x.mintlify.app' }),
      'triggered'
    ],
    ['202 without a status to follow', answer(202, { previewUrl: 'https://acme-x.mintlify.app' }), 'refused'],
    ['429', answer(429, { error: 'Rate limit exceeded' }), 'transient'],
    ['500', answer(500), 'transient'],
    ['503', answer(503), 'transient'],
    ['no answer in time', TIMEOUT, 'transient'],
    ['a connection reset', network('ECONNRESET'), 'transient'],
    ['a proxy that will not tunnel', tunnelRefused(502), 'transient'],
    ['a proxy that wants credentials', tunnelRefused(407), 'refused'],
    [
      '403: no previews on the plan',
      answer(403, { error: 'Preview deployments are not available on your current plan.' }),
      'unavailable'
    ],
    ['403: the key', answer(403, { error: 'Forbidden' }), 'refused'],
    ['400', answer(400, { error: 'branch is required' }), 'refused'],
    ['a cancel', CANCELLED, 'cancelled']
  ] as const)('%s: %s', (_, exchanged, kind) => {
    expect(classifyTrigger(exchanged, 30_000, CONTEXT).kind).toBe(kind)
  })

  it('hands on only an http(s) preview address', () => {
    expect(
      classifyTrigger(answer(202, { statusId: 'st_1', previewUrl: 'javascript:alert(1)' }), 30_000, CONTEXT)
    ).toEqual({
      kind: 'triggered',
      statusId: 'st_1',
      previewUrl: undefined
    })
  })

  it('never takes a status id that could move a request path', () => {
    expect(classifyTrigger(answer(202, { statusId: '../x' }), 30_000, CONTEXT).kind).toBe('refused')
  })

  it('reads Retry-After and marks the rate limit', () => {
    expect(classifyTrigger(answer(429, { error: 'slow' }, { 'retry-after': '12' }), 30_000, CONTEXT)).toEqual({
      kind: 'transient',
      reason: 'rate limited (HTTP 429: slow)',
      rateLimited: true,
      retryAfterMs: 12_000
    })
  })
})

describe("the preview's address", () => {
  it("redacts the preview's address, whatever the API put in it", () => {
    const leaky = answer(202, { statusId: 'st_1', previewUrl: 'https://acme.mintlify.app/?key=mint_sec\tret' })
    expect(classifyTrigger(leaky, 30_000, CONTEXT)).toEqual({
      kind: 'triggered',
      statusId: 'st_1',
      previewUrl: 'https://acme.mintlify.app/?key=***'
    })
  })
})

describe('classifyBuildPoll', () => {
  it.each([
    ['200 with a status', answer(200, { status: 'in_progress' }), 'build'],
    ['200 without one', answer(200, { logs: [] }), 'transient'],
    ['404 for a status just made', answer(404, { error: 'not found' }), 'transient'],
    ['502', answer(502), 'transient'],
    ['no answer in time', TIMEOUT, 'transient'],
    ['401', answer(401), 'permanent'],
    ['a cancel', CANCELLED, 'cancelled']
  ] as const)('%s: %s', (_, exchanged, kind) => {
    expect(classifyBuildPoll(exchanged, 30_000, CONTEXT).kind).toBe(kind)
  })

  it('marks a 404 as not found, so a status that stays lost is given up on', () => {
    expect(classifyBuildPoll(answer(404, { error: 'not found' }), 30_000, CONTEXT)).toMatchObject({ notFound: true })
    expect(classifyBuildPoll(answer(502), 30_000, CONTEXT)).not.toHaveProperty('notFound')
  })

  it("keeps the build's summary and log lines, redacted", () => {
    const body = { status: 'Failure', summary: 'broke on mint_secret', logs: ['ok', 'key mint_secret', 3] }
    expect(classifyBuildPoll(answer(200, body), 30_000, CONTEXT)).toEqual({
      kind: 'build',
      build: { status: 'failure', summary: 'broke on ***', logs: ['ok', 'key ***'] }
    })
  })
})
