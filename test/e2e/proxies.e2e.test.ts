// Behind a proxy: https tunnelled with CONNECT (the proxy never sees the key), a proxy given without a scheme, NO_PROXY
// and loopback addresses that bypass it, a variable that is not a proxy address stopped before any request. And a
// proxy that misbehaves, as a self-hosted runner's corporate proxy may: one that drops the connection on
// CONNECT, one that holds a CONNECT unanswered, one that wants credentials. A proxy fault is the fault of one request:
// it ends within request-timeout, is tried again only after the action's own backoff (never in a tight loop), and the
// message names the proxy, for the admin API and for GitHub alike. A cancel while stuck ends the step in its grace.
import type { ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { type AddressInfo, createServer as createNetServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { jobBody, playJob, sendJson, startServer } from '../../sim/admin-api.ts'
import { type Misbehaviour, type ProxyOptions, startProxy } from '../../sim/loopback-proxy.ts'
import { errorAnnotations, expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'
import { once, steppedClock } from './support/triggers.ts'

const KEY = 'mint_proxy_faults_secret_key'
const PR = 'https://github.com/acme/docs/pull/5'
/** A host only the proxy could reach: every request to it goes through the proxy. */
const BEHIND_PROXY = { url: 'https://api.mintlify.test' }
const ISSUE_EVENT = { action: 'opened', issue: { number: 12, title: 'Document it' } }
const FIXTURES = join(import.meta.dirname, '..', 'fixtures')

const servers = loopback()
const run = bundleRunner({ inputs: { 'project-id': 'proj', 'job-id': 'job-5', 'api-key': KEY } })

async function proxy(misbehave: NonNullable<ProxyOptions['misbehave']>) {
  const started = await startProxy({ misbehave })
  servers.track(started)
  return { ...started, connects: () => started.carried.filter((line) => line.startsWith('CONNECT ')).length }
}

/** The admin API over https at a name only the proxy can reach, its job completed, and the CA that signed it. */
async function apiBehindProxy() {
  const [key = '', cert = ''] = await Promise.all(
    ['key', 'cert'].map((name) => readFile(join(FIXTURES, `loopback-${name}.pem`), 'utf8'))
  )
  const api = await startServer(
    playJob({ projectId: 'proj', jobId: 'job-5', apiKey: KEY, final: { status: 'completed', prLink: PR } }),
    { tls: { key, cert } }
  )
  servers.track(api)
  const url = `https://api.mintlify.test:${new URL(api.url).port}`
  return { api, url, env: { NODE_EXTRA_CA_CERTS: join(FIXTURES, 'loopback-cert.pem') } }
}

/**
 * A bundle looping on the proxy would never end: past far more connections than its backoff allows in the run, it is
 * killed, so the test fails instead of hanging.
 */
function killedInALoop(proxied: { connects: () => number }) {
  return (child: ChildProcess): void => {
    const watch = setInterval(() => {
      if (proxied.connects() > 200) child.kill('SIGKILL')
    }, 10)
    child.on('exit', () => clearInterval(watch))
  }
}

describe('a proxy that drops the connection on CONNECT', () => {
  it('fails each poll once, retried with backoff, naming the proxy, and the timeout holds', async () => {
    const closing = await proxy('close')
    const result = await run(
      BEHIND_PROXY,
      { timeout: '4s', 'request-timeout': '2s' },
      { env: { HTTPS_PROXY: closing.url }, onSpawn: killedInALoop(closing) }
    )
    expect(result.signal).toBeNull()
    expect(result.outputs).toMatchObject({ outcome: 'timeout', status: '' })
    const polls = /could not be read within the timeout of 4s: .* \((\d+) attempts\)/.exec(
      errorAnnotations(result)[0] ?? ''
    )
    expect(errorAnnotations(result)[0]).toContain(
      `the proxy at ${closing.url} closed the connection before opening a tunnel to the API`
    )
    // One connection to the proxy for each poll, at most a few: never a loop.
    expect(closing.connects()).toBeLessThanOrEqual(3 * Number(polls?.[1]))
    expect(result.stdout).toContain(`Poll failed: the proxy at ${closing.url} closed the connection`)
    expectKeyNeverShown(result, KEY)
  })

  it('sends a start again only after the backoff, since nothing passed the proxy, and says nothing was started', async () => {
    const closing = await proxy('close')
    const result = await run(
      BEHIND_PROXY,
      { 'job-id': '', prompt: 'Document it', timeout: '4s', 'request-timeout': '2s' },
      { env: { HTTPS_PROXY: closing.url }, onSpawn: killedInALoop(closing) }
    )
    expect(result.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    const [error] = errorAnnotations(result)
    expect(error).toMatch(
      /^Could not start the agent job: the proxy at http:\/\/127\.0\.0\.1:\d+ closed the connection before opening a tunnel to the API \(UND_ERR_PRX_CONN\), past the timeout \((\d+) attempts?\)\. Nothing was started\./
    )
    const attempts = Number(/\((\d+) attempts?\)/.exec(error ?? '')?.[1])
    expect(closing.connects()).toBeLessThanOrEqual(3 * attempts)
  })
})

describe('a proxy that holds a CONNECT unanswered', () => {
  it('ends a poll at request-timeout, tunnel and all, then tries again', async () => {
    // The proxy holds the first CONNECT unanswered, and opens the next to the admin API.
    const holding = await proxy((n) => (n === 0 ? 'hang' : undefined))
    const { api, url, env } = await apiBehindProxy()
    const result = await run({ url }, { 'request-timeout': '2s' }, { env: { ...env, HTTPS_PROXY: holding.url } })
    expect(result.signal).toBeNull()
    expect(result.outputs).toMatchObject({ outcome: 'completed', prLink: PR })
    expect(result.stdout).toContain('Poll failed: no complete answer within 2000ms (request-timeout)')
    // The held tunnel ends the first poll; a busy machine may take more than request-timeout over the next one too.
    expect(holding.connects()).toBeGreaterThanOrEqual(2)
    expect(api.requests.length).toBeGreaterThanOrEqual(1)
  })

  it('ends within the grace when the run is cancelled meanwhile, with its outputs and summary', async () => {
    const holding = await proxy('hang')
    const result = await run(
      BEHIND_PROXY,
      { 'request-timeout': '30s' },
      {
        env: { HTTPS_PROXY: holding.url },
        onSpawn: (child) => {
          once(
            () => holding.connects() > 0,
            () => child.kill('SIGTERM')
          )
        }
      }
    )
    // Past its grace the step exits without writing them: its outputs and summary say it ended within it.
    expect(result.signal).toBeNull()
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ outcome: 'cancelled', 'job-id': 'job-5', status: '' })
    expect(result.summary).toContain('⏹️ Run cancelled')
    expect(errorAnnotations(result)[0]).toContain('Cancelled while waiting for agent job "job-5"')
  })
})

describe('GitHub behind the proxy', () => {
  /** A job on this machine (never proxied), and GitHub at a name only the proxy could reach. */
  async function jobAndGitHubBehind(misbehave: Misbehaviour) {
    const api = await servers.serve(
      playJob({ projectId: 'proj', jobId: 'job-5', apiKey: KEY, final: { status: 'completed', prLink: PR } })
    )
    return { api, proxy: await proxy(misbehave), github: { url: 'https://github.test' } }
  }

  it('a proxy that drops the connection: the comment fails in a few tries, naming the proxy', async () => {
    const { api, proxy: closing, github } = await jobAndGitHubBehind('close')
    const result = await run(
      api,
      { comment: 'true' },
      {
        github,
        eventName: 'issues',
        event: ISSUE_EVENT,
        env: { HTTPS_PROXY: closing.url },
        onSpawn: killedInALoop(closing)
      }
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'completed', prLink: PR, 'comment-url': '' })
    expect(warningAnnotations(result)[0]).toContain(
      `Could not comment on issue #12 in acme/docs: the proxy at ${closing.url} closed the connection before opening a tunnel to GitHub`
    )
    // A few tries of the comment and of the two asks of who the token is (once more after a failure): never a loop.
    expect(closing.connects()).toBeLessThanOrEqual(15)
  })

  it('a proxy that wants credentials: said as such, naming the proxy and 407', async () => {
    const { api, proxy: refusing, github } = await jobAndGitHubBehind(407)
    const result = await run(
      api,
      { comment: 'true' },
      { github, eventName: 'issues', event: ISSUE_EVENT, env: { HTTPS_PROXY: refusing.url } }
    )
    expect(result.exitCode, result.stdout).toBe(0)
    const [warning] = warningAnnotations(result)
    expect(warning).toContain(
      `Could not comment on issue #12 in acme/docs: the proxy at ${refusing.url} refused to open a tunnel to GitHub (HTTP 407: proxy authentication required)`
    )
    expect(warning).not.toContain('HTTP 500')
  })

  it('a proxy that holds the CONNECT: a cancel ends the step within the grace, outputs and summary written', async () => {
    const { api, proxy: holding, github } = await jobAndGitHubBehind('hang')
    const result = await run(
      api,
      { 'job-id': '', prompt: 'Document it', 'follow-up': 'true' },
      {
        github,
        eventName: 'issues',
        event: ISSUE_EVENT,
        env: { HTTPS_PROXY: holding.url },
        onSpawn: (child) => {
          once(
            () => holding.connects() > 0,
            () => child.kill('SIGTERM')
          )
        }
      }
    )
    expect(result.signal).toBeNull()
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ outcome: 'cancelled', 'job-id': '' })
    expect(result.summary).toContain('⏹️ Run cancelled')
    expect(errorAnnotations(result)[0]).toContain('Cancelled before anything was sent.')
    expect(api.requests).toHaveLength(0)
  })
})

describe('proxies', () => {
  // The fault matrix's step (faults.e2e.test.ts): it waits for job-9, polling fast, and the job completes at once.
  const run = bundleRunner({
    inputs: {
      'project-id': 'proj',
      'job-id': 'job-9',
      'api-key': KEY,
      'poll-interval': '100ms',
      'max-poll-interval': '400ms'
    }
  })
  const { serve, track } = servers
  const completed = (res: ServerResponse): void => {
    sendJson(
      res,
      200,
      jobBody({ projectId: 'proj', jobId: 'job-9', apiKey: KEY, final: { status: 'completed' } }, 'completed', PR)
    )
  }

  /** An https admin API at a name only the proxy can reach (api.mintlify.test), as a real host behind a proxy. */
  async function behindProxy(options: ProxyOptions = {}) {
    const [key, cert] = await Promise.all(
      ['key', 'cert'].map((name) => readFile(join(FIXTURES, `loopback-${name}.pem`), 'utf8'))
    )
    const server = await startServer((_req, res) => completed(res), { tls: { key: key ?? '', cert: cert ?? '' } })
    const proxy = await startProxy(options)
    track(server)
    track(proxy)
    const baseUrl = `https://api.mintlify.test:${new URL(server.url).port}`
    return { server, proxy, baseUrl, env: { NODE_EXTRA_CA_CERTS: join(FIXTURES, 'loopback-cert.pem') } }
  }

  // One as the bundle meets it; which of https_proxy and HTTPS_PROXY counts (a blank one does not) is a row of
  // test/unit/runner/environment.test.ts.
  it.each(['HTTPS_PROXY'])(
    'tunnels https through %s with CONNECT, so the proxy never sees the key',
    async (variable) => {
      const { server, proxy, baseUrl, env } = await behindProxy()
      const result = await run({ url: baseUrl }, {}, { env: { ...env, [variable]: proxy.url } })
      expect(result.exitCode).toBe(0)
      expect(result.outputs['prLink']).toBe(PR)
      expect(proxy.carried).toEqual([`CONNECT ${new URL(baseUrl).host}`])
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
      expect(server.requests[0]?.headers['user-agent']).toMatch(/^mintlify-agent-action\//)
    }
  )

  it('takes a proxy given without a scheme (host:port) for an http:// proxy, as curl does', async () => {
    const { server, proxy, baseUrl, env } = await behindProxy()
    const result = await run({ url: baseUrl }, {}, { env: { ...env, HTTPS_PROXY: new URL(proxy.url).host } })
    expect(result.exitCode).toBe(0)
    expect(proxy.carried).toEqual([`CONNECT ${new URL(baseUrl).host}`])
    expect(server.requests).toHaveLength(1)
  })

  it('stops before any request, naming the variable, when a proxy variable is not a proxy address', async () => {
    const server = await serve((_req, res) => completed(res))
    const result = await run(server, {}, { env: { HTTPS_PROXY: 'socks5://proxy.example:1080' } })
    expect(result.exitCode).toBe(1)
    expect(server.requests).toHaveLength(0)
    expect(result.outputs).toMatchObject({ outcome: 'error', status: '' })
    expect(errorAnnotations(result)[0]).toContain(
      'The proxy variable HTTPS_PROXY is not an http:// or https:// proxy address'
    )
    expect(result.summary).toContain("The step did not start: the runner's proxy setting cannot be used.")
  })

  /** A proxy that answers every CONNECT with this status instead of opening the tunnel. */
  async function refusingProxy(status: number): Promise<{ url: string; connects: () => number }> {
    let connects = 0
    const proxy = createNetServer((socket) => {
      socket.once('data', () => {
        connects += 1
        socket.end(`HTTP/1.1 ${status} No\r\nContent-Length: 0\r\n\r\n`)
      })
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    track({ close: () => new Promise<void>((resolve) => proxy.close(() => resolve())) })
    return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, connects: () => connects }
  }

  it('stops at once when the proxy wants credentials to open the tunnel, saying nothing was started', async () => {
    const proxy = await refusingProxy(407)
    const result = await run(
      { url: 'https://api.mintlify.test' },
      { prompt: 'Document it', 'job-id': '' },
      { env: { HTTPS_PROXY: proxy.url } }
    )
    expect(result.exitCode).toBe(1)
    expect(proxy.connects()).toBe(1)
    expect(result.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    expect(errorAnnotations(result)[0]).toContain(
      `Could not start the agent job: the proxy at ${proxy.url} refused to open a tunnel to the API (HTTP 407: proxy authentication required)`
    )
    expect(errorAnnotations(result)[0]).toContain('Nothing was started.')
  })

  it('sends a start again when the proxy could not open the tunnel, since it never reached the API', async () => {
    // The proxy answers the first CONNECT with 502, and opens the next.
    const { server, proxy, baseUrl, env } = await behindProxy({ misbehave: (n) => (n === 0 ? 502 : undefined) })
    const result = await run(
      { url: baseUrl },
      { prompt: 'Document it', 'job-id': '' },
      { env: { ...env, HTTPS_PROXY: proxy.url } }
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.stdout).toContain(
      `Could not start the agent job: the proxy at ${proxy.url} could not open a tunnel to the API (HTTP 502). The API surely did not act on it, so it is sent again in`
    )
    expect(proxy.carried.slice(0, 2)).toEqual([`CONNECT ${new URL(baseUrl).host}`, `CONNECT ${new URL(baseUrl).host}`])
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1)
  })

  it('says what kept failing when the proxy refuses the tunnel until the timeout, and that nothing was started', async () => {
    // The proxy refuses every CONNECT, and the second moves the step's clock past its timeout.
    const clock = steppedClock()
    const { server, proxy, baseUrl, env } = await behindProxy({
      misbehave: (n) => {
        if (n === 1) clock.jump()
        return 502
      }
    })
    const result = await run(
      { url: baseUrl },
      { prompt: 'Document it', 'job-id': '', ...clock.inputs },
      clock.with({ env: { ...env, HTTPS_PROXY: proxy.url } })
    )
    expect(result.exitCode).toBe(1)
    expect(proxy.carried.length).toBeGreaterThanOrEqual(2)
    expect(errorAnnotations(result)[0]).toContain(
      `Could not start the agent job: the proxy at ${proxy.url} could not open a tunnel to the API (HTTP 502), past the timeout (${proxy.carried.length} attempts). Nothing was started.`
    )
    expect(server.requests).toHaveLength(0)
  })

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    const { server, proxy, baseUrl, env } = await behindProxy()
    const result = await run(
      { url: baseUrl },
      {},
      { env: { ...env, HTTPS_PROXY: proxy.url, NO_PROXY: 'example.com,.mintlify.test' } }
    )
    // Without the proxy the name does not resolve: the request went straight to DNS, and nowhere else.
    expect(result.outputs['outcome']).toBe('error')
    expect(errorAnnotations(result)[0]).toContain('The API host could not be found')
    expect(proxy.carried).toEqual([])
    expect(server.requests).toHaveLength(0)
  })

  // One as the bundle meets it; localhost and [::1] are rows of test/unit/transport/transport.test.ts.
  it.each(['127.0.0.1'])('never sends a loopback base-url (%s) through a proxy', async (host) => {
    const server = await serve((_req, res) => completed(res))
    const proxy = await startProxy()
    track(proxy)
    const url = `http://${host}:${new URL(server.url).port}`
    const result = await run(
      { url },
      {},
      { env: { HTTP_PROXY: proxy.url, http_proxy: proxy.url, HTTPS_PROXY: proxy.url, NO_PROXY: '' } }
    )
    expect(result.exitCode).toBe(0)
    expect(proxy.carried).toEqual([])
    expect(server.requests).toHaveLength(1)
  })
})
