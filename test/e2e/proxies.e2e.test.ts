// Behind a proxy that misbehaves, as a self-hosted runner's corporate proxy may: one that drops the connection on
// CONNECT, one that holds a CONNECT unanswered, one that wants credentials. A proxy fault is the fault of one request:
// it ends within request-timeout, is tried again only after the action's own backoff (never in a tight loop), and the
// message names the proxy, for the admin API and for GitHub alike. A cancel while stuck ends the step in its grace.
import type { ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { playJob, startServer } from '../../sim/admin-api.ts'
import { type Misbehaviour, type ProxyOptions, startProxy } from '../../sim/loopback-proxy.ts'
import { errorAnnotations, expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'
import { once } from './support/triggers.ts'

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
    expect(holding.connects()).toBe(2)
    expect(api.requests).toHaveLength(1)
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
    expect(closing.connects()).toBeLessThanOrEqual(10)
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
