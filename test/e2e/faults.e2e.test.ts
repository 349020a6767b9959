// The fault matrix: the bundled dist/ against a loopback server that misbehaves in every way a real network
// and a real server can. Each case asserts the outcome, the outputs, the requests made, the exit code, and that the
// key never shows; where a wait is promised, that the requests were never closer than it (a busy machine only spaces
// them further). How long the waits are, and how many fit in a timeout, is the unit tests' (test/unit/wait/).
import type { ServerResponse } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { jobBody, type Respond, type RunningServer, sendJson, startServer } from '../../sim/admin-api.ts'
import { loopback } from './support/loopback.ts'
import { type ActionRun, bundleRunner, runAction } from './support/run-bundle.ts'
import { once, steppedClock, whenLogged } from './support/triggers.ts'
import { errorAnnotations, expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'

const KEY = 'mint_fault_matrix_secret'
const PROJECT = 'proj'
const STORY = { projectId: 'proj', jobId: 'job-9', apiKey: KEY, final: { status: 'completed' } }
const PR = 'https://github.com/acme/docs/pull/9'
const INPUTS = {
  'project-id': 'proj',
  'job-id': 'job-9',
  'api-key': KEY,
  'poll-interval': '100ms',
  'max-poll-interval': '400ms'
}

const servers = loopback()
const { serve, track } = servers

const completed = (res: ServerResponse): void => {
  sendJson(res, 200, jobBody(STORY, 'completed', PR))
}
const active = (res: ServerResponse): void => {
  sendJson(res, 200, jobBody(STORY, 'active', null))
}

/** Request i gets responders[i]; requests past the end get the last one. */
function inTurn(...responders: Respond[]): Respond {
  return (req, res, index) => {
    const respond = responders[Math.min(index, responders.length - 1)]
    return respond ? respond(req, res, index) : completed(res)
  }
}

const run = bundleRunner({ inputs: INPUTS })

function gaps(server: RunningServer): number[] {
  return server.requests.slice(1).map((request, i) => request.at - (server.requests[i]?.at ?? 0))
}

function expectCompletedAfterRetries(result: ActionRun, server: RunningServer, requests: number): void {
  expect(result.exitCode).toBe(0)
  expect(result.outputs).toMatchObject({ status: 'completed', outcome: 'completed', prLink: PR })
  expect(server.requests).toHaveLength(requests)
  expect(result.summary).toMatch(
    new RegExp(`<th>Polls</th><td>${requests} \\(${requests - 1} failed and retried\\)</td>`)
  )
  expectKeyNeverShown(result, KEY)
}

describe('transient faults are retried, then the job is reported', () => {
  // One of each kind as the bundle meets it (a status, a body); every answer's class and words are rows of
  // test/unit/admin-api/job-answers.test.ts (a 504 and a body that is not JSON among them).
  it.each([
    [
      '502 with an HTML body',
      (res: ServerResponse) =>
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><h1>Bad Gateway</h1></html>'),
      'HTTP 502'
    ],
    [
      'a 200 with wrong types',
      (res: ServerResponse) => sendJson(res, 200, { status: 'active', prLink: 7 }),
      'HTTP 200 with a body that is not a job: "prLink" is a number, not a string'
    ]
  ])('%s', async (_, fault, reason) => {
    const server = await serve(
      inTurn(
        (_req, res) => fault(res),
        (_req, res) => fault(res),
        (_req, res) => completed(res)
      )
    )
    const result = await run(server)
    expectCompletedAfterRetries(result, server, 3)
    expect(result.stdout).toContain(`Poll failed: ${reason}; retrying in`)
    expect(result.stdout).not.toContain('<html>')
    const [first, second] = gaps(server)
    expect(first).toBeGreaterThanOrEqual(90)
    expect(second).toBeGreaterThanOrEqual(90)
  })

  it('honours Retry-After in seconds: never sooner', async () => {
    const server = await serve(
      inTurn(
        (_req, res) => sendJson(res, 429, { error: 'Too many requests' }, { 'retry-after': '2' }),
        (_req, res) => completed(res)
      )
    )
    const result = await run(server)
    expectCompletedAfterRetries(result, server, 2)
    expect(gaps(server)[0]).toBeGreaterThanOrEqual(2000)
    expect(result.stdout).toContain('Poll failed: rate limited (HTTP 429: Too many requests); retrying in 2s')
  })

  // Retry-After as an HTTP date, read against the answer's own Date: test/unit/admin-api/job-answers.test.ts.
  it('retries a refused connection until the server is up', async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const result = await runAction({
      inputs: { ...INPUTS, 'base-url': url },
      onSpawn: (child) => {
        void whenLogged(child, 'Poll failed: connection refused')
          .then(() =>
            startServer(
              inTurn((_req, res) => completed(res)),
              { port }
            )
          )
          .then(track)
      }
    })
    expect(result.exitCode).toBe(0)
    expect(result.outputs['status']).toBe('completed')
    expect(result.stdout).toContain('Poll failed: connection refused (ECONNREFUSED); retrying in')
  })

  it('retries a connection reset mid-response', async () => {
    const server = await serve(
      inTurn(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' })
          res.write('{"id": "job-9", "sta')
          setTimeout(() => res.socket?.resetAndDestroy(), 20)
        },
        (_req, res) => completed(res)
      )
    )
    const result = await run(server)
    expectCompletedAfterRetries(result, server, 2)
    expect(result.stdout).toContain('Poll failed: connection reset or closed mid-response (ECONNRESET); retrying in')
  })

  it('retries a truncated 200 body', async () => {
    const server = await serve(
      inTurn(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' })
          res.end('{"id": "job-9", "status": "completed"}')
          res.socket?.end()
        },
        (_req, res) => completed(res)
      )
    )
    expectCompletedAfterRetries(await run(server), server, 2)
  })

  it('ends a request the server never answers at request-timeout, then retries', async () => {
    const server = await serve(
      inTurn(
        () => undefined,
        (_req, res) => completed(res)
      )
    )
    // A request-timeout that a loaded machine's answered request fits in.
    const result = await run(server, { 'request-timeout': '2s' }, { env: { RUNNER_DEBUG: '1' } })
    expectCompletedAfterRetries(result, server, 2)
    expect(result.stdout).toContain('Poll failed: no complete answer within 2000ms (request-timeout)')
    // The action's own measure: the server cannot see when the client's deadline started.
    const took = /^::debug::Poll 1: no complete answer within 2000ms \(request-timeout\) \((\d+)ms\)$/m.exec(
      result.stdout
    )
    expect(Number(took?.[1])).toBeGreaterThanOrEqual(2000)
  })

  it('ends a body that stalls past request-timeout, then retries', async () => {
    const server = await serve(
      inTurn(
        (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' })
          res.write('{"id": "job-9",')
        },
        (_req, res) => completed(res)
      )
    )
    const result = await run(server, { 'request-timeout': '2s' })
    expectCompletedAfterRetries(result, server, 2)
  })

  it('waits for a slow body that arrives within request-timeout', async () => {
    const text = JSON.stringify(jobBody(STORY, 'completed', PR))
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunks = text.match(/[\s\S]{1,20}/g) ?? []
      const timer = setInterval(() => {
        const chunk = chunks.shift()
        if (chunk === undefined) {
          clearInterval(timer)
          res.end()
        } else res.write(chunk)
      }, 20)
    })
    const result = await run(server, { 'request-timeout': '5s' })
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(1)
    expect(result.outputs['prLink']).toBe(PR)
  })

  it.each([
    ['with a content-length', true],
    ['chunked', false]
  ])('refuses a body over 1 MiB %s without buffering it', async (_, withLength) => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'x')
    const server = await serve(
      inTurn(
        (_req, res) => {
          res.writeHead(200, withLength ? { 'content-length': String(big.length) } : {})
          res.end(big)
        },
        (_req, res) => completed(res)
      )
    )
    const result = await run(server)
    expectCompletedAfterRetries(result, server, 2)
    expect(result.stdout).toContain('Poll failed: HTTP 200 with a body over 1048576 bytes, not read')
  })
})

describe('a fault that repeats', () => {
  const linesWith = (result: ActionRun, text: string): string[] =>
    result.stdout.split('\n').filter((line) => line.includes(text))

  it('is one line, then one with how many times it repeated once the API answers again', async () => {
    const unavailable: Respond = (_req, res) => res.writeHead(503).end()
    const server = await serve(inTurn(...Array.from({ length: 6 }, () => unavailable), (_req, res) => completed(res)))
    const result = await run(server)
    expectCompletedAfterRetries(result, server, 7)
    expect(linesWith(result, 'Poll failed')).toEqual([expect.stringMatching(/^Poll failed: HTTP 503; retrying in/)])
    expect(linesWith(result, 'Failed the same way')).toEqual([
      expect.stringMatching(/^Failed the same way 5 more times in \S+: HTTP 503$/)
    ])
  })

  it('is one line for an unreachable base-url, tried again and again before the step gives up on it', async () => {
    const url = `http://127.0.0.1:${await freePort()}`
    const result = await runAction({
      inputs: { ...INPUTS, 'job-id': '', prompt: 'Document retries', 'base-url': url, timeout: '3s' }
    })
    expect(result.outputs['outcome']).toBe('error')
    expect(linesWith(result, 'Could not start the agent job: connection refused')).toHaveLength(1)
    const refused = linesWith(result, 'connection refused').filter((line) => !line.startsWith('::'))
    expect(refused.length).toBeLessThanOrEqual(2)
    expect(errorAnnotations(result)[0]).toContain(`base-url (${url}/) could not be reached for`)
  })

  it('is one line and a count when only its request id changes, and its text stays on our lines', async () => {
    const completed = jobBody(
      { projectId: PROJECT, jobId: 'job-2', apiKey: KEY, final: { status: 'completed' } },
      'completed',
      null
    )
    const flaky: Respond = (_req, res, index) =>
      index < 8
        ? sendJson(res, 503, { error: `Service unavailable (request id ${1000 + index})\n::error::pwned ${KEY}` })
        : sendJson(res, 200, completed)
    const server = await servers.serve(flaky)
    const result = await run(server, { 'job-id': 'job-2' })
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(errorAnnotations(result)).toEqual([])
    const faultLines = result.stdout
      .split('\n')
      .filter((line) => !line.startsWith('::debug::') && line.includes('Service unavailable'))
    expect(faultLines.length, faultLines.join('\n')).toBeLessThanOrEqual(2)
    expectKeyNeverShown(result, KEY)
  })
})

describe('faults that outlast the timeout', () => {
  it('say what kept failing and how many attempts were made', async () => {
    // The second fault moves the step's clock past its timeout.
    const clock = steppedClock()
    const server = await serve(
      clock.jumpingAt(
        (_req, res) => res.writeHead(503).end(),
        (_req, index) => index === 1
      )
    )
    const result = await run(server, clock.inputs, clock.with())
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ status: '', outcome: 'timeout' })
    const [error] = errorAnnotations(result)
    expect(error).toContain(
      `could not be read within the timeout of 10m: HTTP 503 (${server.requests.length} attempts)`
    )
    expect(server.requests.length).toBeGreaterThanOrEqual(2)
  })

  it('after the job was seen, report it as still active with the fault', async () => {
    // The first fault moves the step's clock past its timeout.
    const clock = steppedClock()
    const server = await serve(
      inTurn(
        (_req, res) => active(res),
        (_req, res) => {
          clock.jump()
          res.writeHead(502).end()
        }
      )
    )
    const result = await run(server, clock.inputs, clock.with())
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ status: 'active', outcome: 'timeout' })
    expect(errorAnnotations(result)[0]).toMatch(
      /was still active when the timeout of 10m ran out .* The last \d+ polls? failed: HTTP 502\./
    )
  })

  it('stop at once when Retry-After reaches past the timeout', async () => {
    const server = await serve((_req, res) => res.writeHead(429, { 'retry-after': '3600' }).end())
    const result = await run(server, { timeout: '10m' })
    expect(result.exitCode).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(errorAnnotations(result)[0]).toContain('the API asked to wait 3600s (Retry-After), past the timeout')
  })
})

describe('permanent faults stop at once', () => {
  // Two as the bundle meets them (a job not found, and a refusal); every status's class is a row of
  // test/unit/admin-api/job-answers.test.ts.
  it.each([404, 422])('HTTP %d', async (status) => {
    const server = await serve((_req, res) => sendJson(res, status, { error: `refused with ${status}` }))
    const result = await run(server)
    expect(result.exitCode).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(result.outputs).toMatchObject({ outcome: 'error', status: '' })
    expect(errorAnnotations(result)[0]).toContain(`HTTP ${status}: refused with ${status}`)
    expectKeyNeverShown(result, KEY)
  })

  it.each([307])('HTTP %d: the redirect is not followed, so the key never reaches another origin', async (status) => {
    const elsewhere = await serve((_req, res) => completed(res))
    const server = await serve((_req, res) =>
      res.writeHead(status, { location: `${elsewhere.url}/v2/agent/proj/job/job-9` }).end()
    )
    const result = await run(server)
    expect(result.exitCode).toBe(1)
    expect(server.requests).toHaveLength(1)
    expect(elsewhere.requests).toHaveLength(0)
    expect(errorAnnotations(result)[0]).toContain(`HTTP ${status}, a redirect to ${elsewhere.url}`)
  })
})

describe('cancellation', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s, stops polling, writes the summary and exits non-zero at once',
    async (signal) => {
      const server = await serve((_req, res) => active(res))
      let requestsAtSignal = 0
      const result = await runAction({
        inputs: { ...INPUTS, 'base-url': server.url },
        onSpawn: (child) => {
          once(
            () => server.requests.length > 0,
            () => {
              requestsAtSignal = server.requests.length
              child.kill(signal)
            }
          )
        }
      })
      expect(result.exitCode).toBe(1)
      expect(result.signal).toBeNull()
      expect(result.outputs).toMatchObject({ status: 'active', outcome: 'cancelled' })
      expect(result.summary).toContain('⏹️ Run cancelled')
      expect(errorAnnotations(result)[0]).toContain('Cancelled while waiting for agent job "job-9"')
      // No poll after the signal: every request the step sent has arrived once its connections are closed.
      await server.allClosed()
      expect(server.requests.length).toBeLessThanOrEqual(requestsAtSignal + 1)
    }
  )
})

describe('process hygiene', () => {
  it.each([
    ['a completed job', (res: ServerResponse) => completed(res), 'completed'],
    ['an error body', (res: ServerResponse) => sendJson(res, 404, { error: 'x'.repeat(50_000) }), 'error']
  ])('exits once it is done after %s, though the server keeps idle connections open', async (_, respond, outcome) => {
    // The server never closes an idle connection: a socket the step left open would keep it from ever exiting.
    const server = await startServer((_req, res) => respond(res), { keepAliveMs: 0 })
    track(server)
    const result = await run(server)
    expect(result.signal).toBeNull()
    expect(result.outputs['outcome']).toBe(outcome)
    expect(server.requests).toHaveLength(1)
  })
})

describe('hostile responses', () => {
  it('never lets API text become a workflow command, or markup in the summary', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, {
        ...jobBody(STORY, 'completed', PR),
        model: 'm\n::error::forged\n::add-mask::x',
        source: { repository: '<script>alert(1)</script>', ref: 'main\r\n::stop-commands::token' }
      })
    )
    const result = await run(server, {}, { env: { RUNNER_DEBUG: '1' } })
    const lines = result.stdout.split('\n')
    expect(lines.filter((line) => /^\s*::(error|stop-commands)::/.test(line))).toEqual([])
    expect(lines.filter((line) => /^\s*::add-mask::/.test(line))).toEqual([
      `::add-mask::${KEY}`,
      '::add-mask::ghs_test_token'
    ])
    expect(result.summary).not.toContain('<script>')
    expect(result.summary).toContain('&lt;script&gt;')
    expect(result.summary).toContain('m ::error::forged ::add-mask::x')
    expectKeyNeverShown(result, KEY)
  })

  it('drops a prLink that is not an http(s) URL, with a warning', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, jobBody(STORY, 'completed', 'javascript:alert(document.cookie)'))
    )
    const result = await run(server)
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'completed', prLink: '', 'pr-number': '' })
    expect(warningAnnotations(result)).toEqual([expect.stringContaining('that was dropped: it is not an http(s) URL.')])
    expect(result.summary).not.toContain('javascript:')
  })

  it('keeps the key out of every output, even when the API echoes it and step debug logging is on', async () => {
    const server = await serve(
      inTurn(
        (_req, res) => sendJson(res, 500, { error: `bad key ${KEY}` }),
        (_req, res) => completed(res)
      )
    )
    const result = await run(server, {}, { env: { RUNNER_DEBUG: '1', ACTIONS_STEP_DEBUG: 'true' } })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('::debug::')
    expect(result.stdout).toContain('Poll failed: HTTP 500: bad key ***; retrying in')
    expectKeyNeverShown(result, KEY)
  })
})

async function freePort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}
