// The service as it is now, and the mistakes a new user makes with it, each said in the user's terms: keys that expire,
// keys that are not allowed a request (an IP allowlist, read-only, a plan without API access), keys that are not admin
// keys; a base-url that never answers, or answers with a web page; a certificate the runner does not trust; a GitHub
// whose name the runner cannot resolve. The bundle run as the runner runs it, against loopback servers, for one of
// each kind; the words for each answer are rows of test/unit/admin-api/job-answers.test.ts.
import { readFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { jobBody, type Respond, sendJson, startServer } from '../../sim/admin-api.ts'
import { errorAnnotations, expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'

const KEY = 'mint_service_now_secret_key'
const STORY = { projectId: 'proj', jobId: 'job-3', apiKey: KEY, final: { status: 'completed' } }
const FIXTURES = join(import.meta.dirname, '..', 'fixtures')
const PROMPT = { 'job-id': '', prompt: 'Document the new endpoint' }

const servers = loopback()
const run = bundleRunner({
  inputs: { 'project-id': 'proj', 'job-id': 'job-3', 'api-key': KEY, 'poll-interval': '100ms' }
})

const active = (res: ServerResponse): void => {
  sendJson(res, 200, jobBody(STORY, 'active', null))
}

/** Request i gets responders[i]; requests past the end get the last one. */
function inTurn(...responders: Respond[]): Respond {
  return (req, res, index) => responders[Math.min(index, responders.length - 1)]?.(req, res, index)
}

describe('keys as they are now', () => {
  // What a 401 says (the key may have expired, where a new one is made), an IP allowlist's 403 and a plan's: rows of
  // test/unit/admin-api/job-answers.test.ts, as the bundle meets a 401 in action.e2e.test.ts.
  it('a 401 after earlier polls says the key stopped working mid-run, and that the job goes on', async () => {
    const server = await servers.serve(
      inTurn(
        (_req, res) => active(res),
        (_req, res) => active(res),
        (_req, res) => sendJson(res, 401, { error: 'API key expired' })
      )
    )
    const result = await run(server)
    expect(result.outputs).toMatchObject({ outcome: 'error', status: 'active' })
    const [error] = errorAnnotations(result)
    expect(error).toContain(
      'The API stopped accepting the key during this step (HTTP 401: API key expired), after it had answered earlier polls: the key expired or was revoked while the job ran. The job itself goes on.'
    )
  })

  it('a start refused with 403 says a read-only key can follow jobs but not start them', async () => {
    const server = await servers.serve((req, res) =>
      req.method === 'POST' ? sendJson(res, 403, { error: 'Insufficient scope' }) : active(res)
    )
    const result = await run(server, PROMPT)
    expect(result.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    const [error] = errorAnnotations(result)
    expect(error).toContain(
      'The API refused to start the agent job (HTTP 403: Insufficient scope): the key is not allowed to. A key limited to read can follow a job but not start one, send a follow-up or build a preview: starting jobs needs a key with write access'
    )
    expect(error).toContain('Nothing was started.')
    expect(server.requests).toHaveLength(1)
  })

  // One as the bundle meets it; each kind of key that is not an admin key is a row of test/unit/inputs/settings.test.ts.
  it.each([['mint_dsc_0123456789abcdef', 'an assistant API key (it starts with "mint_dsc_")']])(
    '%s is refused before any request, naming the kind of key',
    async (key, kind) => {
      const server = await servers.serve((_req, res) => active(res))
      const result = await run(server, { 'api-key': key, timeout: '3s' })
      expect(server.requests).toHaveLength(0)
      expect(result.outputs).toMatchObject({ outcome: 'error' })
      expect(errorAnnotations(result)[0]).toContain(
        `Input "api-key" holds ${kind}, not an admin API key, so nothing is sent: the admin API refuses it. Make an admin API key on the dashboard's API keys page, under organization settings`
      )
      expectKeyNeverShown(result, key)
    }
  )
})

describe('base-url mistakes said as such', () => {
  /** An address on this machine where nothing listens. */
  async function nothingListening(): Promise<{ url: string }> {
    const server = await startServer(() => undefined)
    await server.close()
    return { url: server.url }
  }

  it('a base-url that never answers is tried for a minute, not for the whole timeout, then named', async () => {
    const closed = await nothingListening()
    const result = await run(
      closed,
      // The default intervals: a few connections in the minute, not hundreds in a real second.
      { 'poll-interval': '5s', 'max-poll-interval': '30s', timeout: '1h' },
      {
        // The step's clock and its waits run 60 times faster: its minute passes in a second, its hour in a minute.
        nodeArgs: ['--import', join(FIXTURES, 'fast-clock.mjs')],
        env: { FAST_CLOCK: '60' }
      }
    )
    expect(result.signal).toBeNull()
    expect(result.outputs).toMatchObject({ outcome: 'error', status: '' })
    // The minute itself is the unit tests' (test/unit/wait/job-wait.test.ts): a busy machine stretches the step's
    // sped-up time, but never to the hour of the timeout.
    const tried = new RegExp(
      `^base-url \\(${closed.url}/\\) could not be reached for (\\d+)m( \\d+s)?, and has not answered once: connection refused \\(ECONNREFUSED\\)\\. Check base-url`
    ).exec(errorAnnotations(result)[0] ?? '')
    expect(tried, errorAnnotations(result)[0]).not.toBeNull()
    expect(Number(tried?.[1])).toBeLessThan(30)
  })

  it('a start to a base-url that never answers names base-url and the address tried, within a shorter timeout', async () => {
    const closed = await nothingListening()
    const result = await run(closed, { ...PROMPT, timeout: '3s' })
    expect(result.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    expect(errorAnnotations(result)[0]).toMatch(
      new RegExp(
        `^Could not start the agent job: base-url \\(${closed.url}/\\) could not be reached for \\d+s, and has not answered once: connection refused \\(ECONNREFUSED\\)\\. .* Nothing was started\\.`
      )
    )
  })

  const page = (status: number) => (_req: unknown, res: ServerResponse) =>
    res.writeHead(status, { 'content-type': 'text/html' }).end('<!doctype html><title>Acme Docs</title><h1>Docs</h1>')

  // A poll answered with a web page, and a 405, name base-url the same way: rows of
  // test/unit/admin-api/job-answers.test.ts.
  it('a start answered with a web page names base-url, and is still never sent twice', async () => {
    const server = await servers.serve(page(200))
    const result = await run(server, PROMPT)
    expect(result.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    const [error] = errorAnnotations(result)
    expect(error).toMatch(
      /^base-url \(.*\) does not look like the Mintlify admin API: POST .* answered HTTP 200 with an HTML page/
    )
    expect(error).toContain('It is not sent again, so that nothing runs twice')
    expect(error).not.toContain('may or may not have worked')
    expect(server.requests).toHaveLength(1)
  })
})

describe('network faults said as such', () => {
  async function untrustedApi(respond: Respond) {
    const [key, cert] = await Promise.all(
      ['key', 'cert'].map((name) => readFile(join(FIXTURES, `loopback-${name}.pem`), 'utf8'))
    )
    const server = await startServer(respond, { tls: { key: key ?? '', cert: cert ?? '' } })
    servers.track(server)
    return server
  }

  it('a start whose TLS handshake fails was not sent, and is not tried again', async () => {
    const server = await untrustedApi((_req, res) => sendJson(res, 201, jobBody(STORY, 'active', null)))
    const result = await run(server, PROMPT)
    expect(result.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    const [error] = errorAnnotations(result)
    expect(error).toMatch(
      /^Could not start the agent job: the TLS handshake with 127\.0\.0\.1:\d+ failed: .*\(\w+\)\. The handshake failed before any byte of the request was sent/
    )
    expect(error).toContain('Nothing was started.')
    expect(error).not.toContain('may or may not')
    expect(server.requests).toHaveLength(0)
  })

  it('a poll whose certificate is not trusted stops at once, since trying again cannot help', async () => {
    const server = await untrustedApi((_req, res) => active(res))
    const result = await run(server, { timeout: '5s' })
    expect(result.outputs).toMatchObject({ outcome: 'error' })
    expect(errorAnnotations(result)[0]).toMatch(
      /^Could not read the job: the TLS handshake with 127\.0\.0\.1:\d+ failed: .* trying again cannot change it/
    )
    expect(result.stdout).not.toContain('Poll failed')
  })

  it("a DNS failure on GitHub is the runner's network fault, not an HTTP 500", async () => {
    const api = await servers.serve((_req, res) => sendJson(res, 200, jobBody(STORY, 'completed', null)))
    const result = await run(
      api,
      { comment: 'true' },
      {
        eventName: 'issues',
        event: { action: 'opened', issue: { number: 12 } },
        env: { GITHUB_API_URL: 'https://api.github.com', UNRESOLVABLE_HOSTS: 'api.github.com' },
        nodeArgs: ['--import', join(FIXTURES, 'unresolvable-api-host.mjs')]
      }
    )
    expect(result.exitCode).toBe(0)
    const [warning] = warningAnnotations(result)
    expect(warning).toContain(
      "Could not comment on issue #12 in acme/docs: the runner could not resolve api.github.com (ENOTFOUND), a fault of the runner's network, not an answer from GitHub"
    )
    expect(warning).not.toContain('HTTP 500')
  })
})
