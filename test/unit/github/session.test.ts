import { MockAgent } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import { openSession, type RunInfo } from '../../../src/github/session.ts'
import type { Transport } from '../../../src/transport/transport.ts'

const API = 'https://api.github.com'
const agents: MockAgent[] = []
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()))
})

/** A session whose GitHub answers each viewer query with the next of `answers`, and counts the queries. */
function sessionAnswering(...answers: [status: number, body: unknown][]) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  agents.push(agent)
  let asked = 0
  agent
    .get(API)
    .intercept({ path: '/graphql', method: 'POST' })
    .reply(() => {
      const [statusCode, data] = answers[Math.min(asked++, answers.length - 1)] ?? [500, {}]
      return {
        statusCode,
        data: JSON.stringify(data),
        responseOptions: { headers: { 'content-type': 'application/json' } }
      }
    })
    .persist()
  const transport: Transport = {
    dispatcher: agent,
    userAgent: 'test',
    redact: (text) => text,
    cancelSignal: new AbortController().signal,
    proxyFor: () => undefined
  }
  const settings = settingsOf({ 'github-token': 'ghp_person_token' })
  const log = { debug: () => undefined, info: () => undefined, warning: () => undefined }
  const run = { apiUrl: API } as RunInfo
  const session = openSession(settings, transport, { repository: 'acme/widgets', log, deadlineMs: 60_000 }, run)
  return { session, asked: () => asked }
}

const VIEWER = { data: { viewer: { login: 'mona' } } }

describe('who github-token acts as', () => {
  it('is asked once when GitHub says', async () => {
    const { session, asked } = sessionAnswering([200, VIEWER])
    expect(await session.login()).toBe('mona')
    expect(await session.login()).toBe('mona')
    expect(asked()).toBe(1)
  })

  it('is asked again after GitHub would not say, so one lost answer does not decide the whole run', async () => {
    const { session, asked } = sessionAnswering([404, { message: 'Not Found' }], [200, VIEWER])
    expect(await session.login()).toBeUndefined()
    expect(await session.login()).toBe('mona')
    expect(await session.login()).toBe('mona')
    expect(asked()).toBe(2)
  })

  it('is asked at most twice when GitHub will not say, so a GitHub out of reach is not asked by every reader', async () => {
    const { session, asked } = sessionAnswering([404, { message: 'Not Found' }])
    for (let i = 0; i < 4; i++) expect(await session.login()).toBeUndefined()
    expect(asked()).toBe(2)
  })
})
