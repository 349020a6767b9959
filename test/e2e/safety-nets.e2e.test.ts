// What holds when GitHub or the runner get in the way: loop prevention that fails safe when GitHub will not say who a
// token is or the records cannot all be read, the refused start's result, a fault repeated with a new request id told
// in few lines, a check run ended after a SIGTERM, and the key and tokens kept out of every place they could show.
import { describe, expect, it } from 'vitest'
import { jobBody, type Respond, sendJson } from '../../sim/admin-api.ts'
import type { FakeGitHubOptions } from '../../sim/github-api.ts'
import { markerOf, promptHash, type TrackingState } from '../../src/github/tracking-record.ts'
import { RESULT_KEYS } from '../../src/runner/io.ts'
import { forMarkdown } from '../../src/text/untrusted.ts'
import { errorAnnotations, expectKeyNeverShown } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'
import { once } from './support/triggers.ts'

const KEY = 'mint_attack2_secret_key_0123'
const TOKEN = 'ghs_attack2_token_value_0123'
const DOCS_TOKEN = 'ghs_attack2_docs_app_token_0123'
const PROJECT = 'docs'
const DOCS_PR = 'https://github.com/acme/docs/pull/128'
const HEAD = 'a'.repeat(40)

const servers = loopback()
const run = bundleRunner({
  githubToken: TOKEN,
  env: { GITHUB_REPOSITORY: 'acme/api', GITHUB_SHA: 'e'.repeat(40) },
  inputs: { 'project-id': PROJECT, 'api-key': KEY, 'poll-interval': '100ms', 'max-poll-interval': '300ms' }
})

async function world(github: FakeGitHubOptions = {}, activePolls = 1) {
  const fake = await servers.github({ owner: 'acme', repo: 'api', ...github })
  const agent = await servers.agentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls, final: { status: 'completed', prLink: DOCS_PR } }
  })
  return { github: fake, api: agent.api, server: agent.server }
}

/** An event of pull request `number` in acme/api, opened by `user`. */
function pullEvent(action: string, user = 'octocat', number = 7) {
  return {
    action,
    number,
    pull_request: {
      number,
      title: 'Update the docs',
      html_url: `https://github.com/acme/api/pull/${number}`,
      user: { login: user, type: user.endsWith('[bot]') ? 'Bot' : 'User' },
      body: 'An update.',
      head: { ref: 'docs/update', sha: HEAD },
      base: { ref: 'main' },
      draft: false,
      merged: false,
      state: 'open',
      created_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      labels: []
    }
  }
}

describe('loop prevention when GitHub will not say who docs-token is', () => {
  it("starts no job for the docs app's own pull request when the viewer query fails for docs-token", async () => {
    const { github, api, server } = await world({
      viewers: { [DOCS_TOKEN]: 'acme-docs' },
      intercept: (call, req, res) => {
        if (call !== 'POST /graphql' || !(req.headers.authorization ?? '').endsWith(DOCS_TOKEN)) return false
        sendJson(res, 502, { message: 'Bad Gateway' })
        return true
      }
    })
    const result = await run(
      server,
      { prompt: 'Keep the docs in step.', 'docs-token': DOCS_TOKEN },
      { eventName: 'pull_request', event: pullEvent('opened', 'acme-docs[bot]'), github }
    )
    expect(api.posts, result.stdout).toEqual([])
    expect(result.outputs['outcome']).not.toBe('completed')
  })
})

describe("the refused start's result", () => {
  it.each([
    ['an empty api-key', { 'api-key': '' }, {}],
    ['an unknown mode', { mode: 'pairs', prompt: 'x' }, {}],
    ['a poll-interval that is no duration', { 'poll-interval': 'soon', prompt: 'x' }, {}],
    ['an event file that is not there', { prompt: 'x' }, { GITHUB_EVENT_PATH: '/nonexistent/event.json' }],
    ['a proxy that is no URL', { prompt: 'x' }, { HTTPS_PROXY: 'http://[::1' }]
  ])('holds every key after %s', async (_, inputs, env) => {
    const server = await servers.serve((_req, res) => sendJson(res, 500, { error: 'never asked' }))
    const result = await run(server, inputs, { env })
    expect(result.exitCode, result.stdout).toBe(1)
    expect(result.outputs['outcome']).toBe('error')
    const parsed = JSON.parse(result.outputs['result'] ?? '') as Record<string, unknown>
    expect(Object.keys(parsed).sort()).toEqual([...RESULT_KEYS].sort())
    expect(parsed['outcome']).toBe('error')
  })
})

describe('a fault that repeats', () => {
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

/** A start recorded in a tracking comment's marker, `minutesAgo` minutes ago. */
function start(run: string, minutesAgo: number) {
  const line = 'an earlier prompt'
  const at = Date.now() - minutesAgo * 60_000
  return { kind: 'start' as const, run, attempt: 1, prompt: promptHash(line), line, project: PROJECT, at }
}

/** A comment on issue `issue` that carries this record, written by `user` just now. */
function recordBy(user: string, issue: number, state: TrackingState) {
  return { issue, user, body: `${markerOf(state)}\nA report.`, updatedAt: new Date().toISOString() }
}

describe('mode: pair on the docs pull request a job of this action opened in the same repository', () => {
  const OWN_DOCS = 'https://github.com/acme/api/pull/128'
  const record = recordBy('github-actions[bot]', 7, {
    job: 'job-1',
    requests: [{ ...start('1', 60), head: HEAD }],
    ended: 'completed',
    pr: OWN_DOCS
  })
  const inputs = { mode: 'pair', prompt: 'Keep the docs in step.' }
  const event = { eventName: 'pull_request', event: pullEvent('synchronize', 'octocat', 128) }

  it('starts no job on it when more than 1,000 comments were written in the repository since it opened', async () => {
    const now = new Date().toISOString()
    const others = Array.from({ length: 1000 }, (_, n) => ({
      issue: 3,
      user: 'mona',
      body: `Comment ${n}`,
      updatedAt: now
    }))
    const { github, api, server } = await world({ existing: [...others, record] })
    const result = await run(server, inputs, { ...event, github })
    expect(api.posts, result.stdout).toEqual([])
  })

  it('starts no job on it when GitHub fails to list the records', async () => {
    const { github, api, server } = await world({
      existing: [record],
      failReads: { 'GET /repos/acme/api/issues/comments': 502 }
    })
    const result = await run(server, inputs, { ...event, github })
    expect(api.posts, result.stdout).toEqual([])
  })

  it('starts no job on it when nothing gets in the way (the control)', async () => {
    const { github, api, server } = await world({ existing: [record] })
    const result = await run(server, inputs, { ...event, github })
    expect(result.outputs['skip-reason'], result.stdout).toBe(
      'pull request #128 is a docs pull request a job of this action opened (loop prevention)'
    )
    expect(api.posts).toEqual([])
  })
})

describe("mode: pair's check run when the runner cancels", () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'is not left in progress after %s in the middle of the wait',
    async (signal) => {
      const { github, api, server } = await world(
        { pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] } },
        Infinity
      )
      const result = await run(
        server,
        { mode: 'pair', prompt: 'Keep the docs in step.' },
        {
          eventName: 'pull_request',
          event: pullEvent('opened'),
          github,
          onSpawn: (child) => {
            once(
              () => api.posts.length > 0 && github.checkRuns.length > 0,
              () => child.kill(signal)
            )
          }
        }
      )
      expect(result.outputs['outcome'], result.stdout).toBe('cancelled')
      expect(
        github.checkRuns.map((check) => check.status),
        result.stdout
      ).toEqual(['completed'])
    }
  )
})

describe('the key echoed by a refused start in mode: pair', () => {
  it('shows nowhere: not in the log, outputs, summary, comment or check run', async () => {
    const github = await servers.github({
      owner: 'acme',
      repo: 'api',
      viewers: { [DOCS_TOKEN]: 'acme-docs' },
      pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] }
    })
    const server = await servers.serve((_req, res) =>
      sendJson(res, 400, {
        error: `Invalid key ${KEY} for token ${DOCS_TOKEN} and ${TOKEN}`,
        details: { authorization: `Bearer ${KEY}` }
      })
    )
    const result = await run(
      server,
      { mode: 'pair', prompt: 'Keep the docs in step.', 'docs-token': DOCS_TOKEN },
      { eventName: 'pull_request', event: pullEvent('opened'), github }
    )
    expect(result.outputs['outcome'], result.stdout).toBe('error')
    // The runner masks docs-token in the log (the step asked it to): every other place is the step's to keep clean.
    for (const secret of [KEY, TOKEN]) expectKeyNeverShown(result, secret)
    for (const secret of [KEY, TOKEN, DOCS_TOKEN]) {
      expect(result.summary).not.toContain(secret)
      expect(JSON.stringify(result.outputs)).not.toContain(secret)
      expect(github.written.filter((write) => write.body.includes(secret))).toEqual([])
      expect(github.checkRuns.filter((check) => `${check.title} ${check.summary}`.includes(secret))).toEqual([])
    }
    expect(github.checkRuns.map((check) => check.summary).join('\n')).toContain('Invalid key ***')
  })
})

describe('docs-token pasted into the prompt by a careless user', () => {
  it('shows nowhere: not in the summary, the outputs, the comment or the check run', async () => {
    const { github, server } = await world({
      viewers: { [DOCS_TOKEN]: 'acme-docs' },
      pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] }
    })
    const result = await run(
      server,
      { mode: 'pair', prompt: `Open the docs PR with GH_TOKEN=${DOCS_TOKEN} please.`, 'docs-token': DOCS_TOKEN },
      { eventName: 'pull_request', event: pullEvent('opened'), github }
    )
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(result.summary).toContain(forMarkdown('TOKEN=***'))
    expect(result.summary).not.toContain(forMarkdown(DOCS_TOKEN))
    expect(JSON.stringify(result.outputs)).not.toContain(DOCS_TOKEN)
    expect(github.written.filter((write) => write.body.includes(DOCS_TOKEN))).toEqual([])
    expect(github.checkRuns.filter((check) => `${check.title} ${check.summary}`.includes(DOCS_TOKEN))).toEqual([])
  })
})

describe('a check run whose create answered 502 after GitHub made it', () => {
  it('is never made a second time when the lookup for it fails too', async () => {
    let failed = false
    const { github, api, server } = await world({
      pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] },
      failAfterWriting: (call) => {
        if (failed || call !== 'POST /repos/acme/api/check-runs') return undefined
        failed = true
        return 502
      },
      failReads: { [`GET /repos/acme/api/commits/${HEAD}/check-runs`]: 502 }
    })
    const result = await run(
      server,
      { prompt: 'Document the change', check: 'true' },
      { eventName: 'pull_request', event: pullEvent('opened'), github }
    )
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(api.posts).toHaveLength(1)
    expect(github.calls.filter((call) => call === 'POST /repos/acme/api/check-runs')).toHaveLength(1)
    expect(github.calls.filter((call) => call.startsWith('GET /repos/acme/api/commits/'))).not.toEqual([])
  })
})
