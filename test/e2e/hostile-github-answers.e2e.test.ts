// Hostile GitHub answers: secrets echoed back, rate limits, endless pages and odd fields change nothing they should not.
import { describe, expect, it } from 'vitest'
import { sendJson } from '../../sim/admin-api.ts'
import { markerOf, promptHash } from '../../src/github/tracking-record.ts'
import { warningAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { runAction, type RunOptions } from './support/run-bundle.ts'
import { onSlowClock } from './support/triggers.ts'

const KEY = 'mint_github_attack_key_0123'
const TOKEN = 'ghs_github_attack_token_0123'
const servers = loopback()

async function runWith(
  github: { url: string },
  inputs: Record<string, string> = {},
  env: Record<string, string> = {},
  options: Pick<RunOptions, 'nodeArgs' | 'env'> = {}
) {
  const server = await servers.serve((req, res) =>
    sendJson(res, req.method === 'POST' ? 201 : 200, { id: 'job-1', status: 'completed' })
  )
  return runAction({
    ...options,
    githubToken: TOKEN,
    eventName: 'issues',
    event: { action: 'opened', issue: { number: 12 } },
    env: { ...options.env, GITHUB_API_URL: github.url, RUNNER_DEBUG: '1', ...env },
    inputs: {
      'project-id': 'docs',
      'api-key': KEY,
      'base-url': server.url,
      prompt: 'Go',
      comment: 'true',
      'poll-interval': '50ms',
      ...inputs
    }
  })
}

describe('hostile GitHub', () => {
  it("a re-run never takes a job from a record of its own or a later attempt, even one the token's account wrote", async () => {
    const prLink = 'https://github.com/acme/docs/pull/1'
    const { api, server } = await servers.agentApi({
      projectId: 'docs',
      apiKey: KEY,
      run: { activePolls: 0, final: { status: 'completed', prLink } },
      existing: [{ jobId: 'job-evil', activePolls: 0, final: { status: 'completed', prLink: `${prLink}66` } }]
    })
    const github = await servers.github()
    const prompt = 'Document /users'
    const run = (attempt: string) =>
      runAction({
        eventName: 'issues',
        event: { action: 'labeled', issue: { number: 12 } },
        env: { GITHUB_API_URL: github.url, GITHUB_RUN_ATTEMPT: attempt, GITHUB_JOB: 'docs', GITHUB_ACTION: 'agent' },
        inputs: { 'project-id': 'docs', 'api-key': KEY, 'base-url': server.url, prompt, comment: 'true' }
      })
    expect((await run('1')).outputs['job-id']).toBe('job-1')
    const at = Date.now()
    const request = { kind: 'start', run: '4242', attempt: 9, prompt: promptHash(prompt), line: prompt, at } as const
    const requests = [{ ...request, project: 'docs', step: 'docs/agent' }]
    const forged = markerOf({ job: 'job-evil', requests, reportedAt: at })
    const author = github.comments[0]?.user ?? ''
    github.comments.push({
      id: 5000,
      repo: 'acme/docs',
      issue: 12,
      body: `${forged}\nlooks like ours`,
      user: author,
      createdAt: '',
      updatedAt: ''
    })
    const second = await run('2')
    expect(second.outputs['job-id']).toBe('job-1')
    expect(second.outputs['prLink']).toBe(prLink)
    expect(api.posts).toHaveLength(1)
  })

  it('an error body that echoes the token (as is, percent-encoded, base64, upper-case) never shows it', async () => {
    const echoed = [
      TOKEN,
      encodeURIComponent(TOKEN).replace(/_/g, '%5F'),
      Buffer.from(`x-access-token:${TOKEN}`).toString('base64'),
      TOKEN.toUpperCase()
    ].join(' | ')
    const github = await servers.github({
      intercept: (call, _req, res) => {
        if (!call.startsWith('POST /repos')) return false
        sendJson(res, 422, {
          message: `Validation failed for ${echoed}`,
          documentation_url: `https://docs.github.com/?t=${TOKEN}`
        })
        return true
      }
    })
    const result = await runWith(github)
    const text = [result.stdout, result.summary, JSON.stringify(result.outputs)].join('\n')
    const lines = text.split('\n').filter((line) => !line.startsWith('::add-mask::'))
    expect(lines.filter((line) => line.toLowerCase().includes(TOKEN.toLowerCase()))).toEqual([])
    expect(lines.filter((line) => line.includes('%5F'))).toEqual([])
    expect(
      lines.filter((line) => line.includes(Buffer.from(`x-access-token:${TOKEN}`).toString('base64').slice(24, 40)))
    ).toEqual([])
    expect(result.outputs['outcome']).toBe('completed')
  })

  it('a primary rate limit far in the future is a warning that names the rate limit, not permissions', async () => {
    const github = await servers.github({
      intercept: (call, _req, res) => {
        if (!call.startsWith('POST /repos')) return false
        sendJson(
          res,
          403,
          { message: 'API rate limit exceeded' },
          {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600)
          }
        )
        return true
      }
    })
    const result = await runWith(github)
    expect(result.outputs['outcome']).toBe('completed')
    const warnings = warningAnnotations(result).join('\n')
    expect(warnings).toMatch(/rate limit/)
    expect(warnings).not.toMatch(/lacks permission/)
  })

  it('a comment listing whose Link header never ends reads at most 100 pages, then the re-run check still ends', async () => {
    let lists = 0
    const github = await servers.github({
      intercept: (call, req, res) => {
        if (call !== 'GET /repos/acme/docs/issues/12/comments') return false
        lists += 1
        const url = new URL(req.url ?? '/', 'http://x')
        const page = Number(url.searchParams.get('page') ?? 1)
        const base = `http://${req.headers.host ?? ''}/repos/acme/docs/issues/12/comments?per_page=100`
        sendJson(res, 200, [], { link: `<${base}&page=${page + 1}>; rel="next", <${base}&page=99999999>; rel="last"` })
        return true
      }
    })
    // A hundred reads on a busy machine may take longer than GitHub's deadline of a minute: the step's clock runs slow,
    // so that what ends the listing is the cap of 100 pages.
    const result = await runWith(github, { 'follow-up': 'true' }, { GITHUB_RUN_ATTEMPT: '2' }, onSlowClock())
    expect(lists).toBeLessThanOrEqual(100)
    expect(result.outputs['outcome']).toBe('completed')
  })

  it('a GraphQL viewer that answers a non-string login: follow-up stops before sending, saying why', async () => {
    const github = await servers.github({
      intercept: (call, _req, res) => {
        if (call !== 'POST /graphql') return false
        sendJson(res, 200, { data: { viewer: { login: 42 } } })
        return true
      }
    })
    const result = await runWith(github, { 'follow-up': 'true' })
    expect(result.outputs['outcome']).toBe('error')
    expect(result.stdout).toContain('GitHub did not say who the token acts as')
  })

  it('a non-http(s) html_url is never an output', async () => {
    const github = await servers.github({ htmlUrl: () => 'javascript:alert(document.cookie)' })
    const result = await runWith(github)
    expect(result.outputs['comment-url']).toBe('')
    expect(result.stdout).not.toContain('javascript:')
  })
})
