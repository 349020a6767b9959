// Careless inputs: each an input error before any request, or harmless, and never a way to show the key. A key that
// cannot be sent, a key passed as project-id; the result output an input error still leaves whole; the small things a
// new user hit; and a second signal during shutdown, which still leaves the outputs and the summary. One of each kind
// runs the bundle here; every rule (durations a timer cannot hold or that would flood a remote API, a base-url with its
// version path, ...) is a row of test/unit/inputs/settings.test.ts.
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { jobBody, sendJson } from '../../sim/admin-api.ts'
import { readActionMetadata } from '../../sim/run-action.ts'
import { RESULT_KEYS } from '../../src/runner/io.ts'
import { errorAnnotations, warningAnnotations } from '../support/expectations.ts'
import { codeRepository } from './support/code-repository.ts'
import { onIssue } from './support/issue-step.ts'
import { completed, expectNoPartOfKey, JOB_FIVE, runJobFive } from './support/job-five.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner, runAction } from './support/run-bundle.ts'
import { once } from './support/triggers.ts'

const KEY = 'mint_inputs_attack_key_0123'
const servers = loopback()

const run = bundleRunner({
  githubToken: 'ghs_inputs_attack_token_01',
  inputs: { 'project-id': 'docs', 'api-key': KEY, prompt: 'Go' }
})

describe('careless inputs', () => {
  // One as the bundle meets it; every rule has its row in test/unit/inputs/settings.test.ts (a duration, a base-url, an
  // api-key that cannot be sent, the hint for an empty project-id, and the words of each error).
  it.each([['api-key', `${KEY}\u200b`]])(
    '%s: %j is an input error before any request, that does not show the key',
    async (name, value) => {
      const server = await servers.serve((_req, res) => sendJson(res, 500, {}))
      const result = await run(server, { [name]: value })
      expect(server.requests).toHaveLength(0)
      expect(result.outputs['outcome']).toBe('error')
      expect(errorAnnotations(result).join('\n')).toContain(`"${name}"`)
      expect(
        result.stdout.split('\n').filter((line) => line.includes(KEY.slice(5)) && !line.startsWith('::add-mask::'))
      ).toEqual([])
    }
  )

  it("a prompt reaches the agent whole up to the runner's limit for one variable, which action.yml states; past it the step cannot start", async () => {
    const { api, server } = await servers.agentApi({
      projectId: 'docs',
      apiKey: KEY,
      run: { activePolls: 0, final: { status: 'completed' } }
    })
    // Linux holds one environment variable, `INPUT_PROMPT=`, its value and its end, in 128 KiB.
    const limit = 128 * 1024 - 'INPUT_PROMPT='.length - 1
    const result = await run(server, { prompt: 'x'.repeat(limit), 'poll-interval': '50ms' })
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(String(api.posts[0]?.prompt)).toHaveLength(limit)
    await expect(run(server, { prompt: 'x'.repeat(limit + 1) })).rejects.toThrow('E2BIG')
    const { inputs } = await readActionMetadata()
    expect(inputs['prompt']?.description).toContain(`At most about 128 KB (${limit.toLocaleString('en-US')} bytes`)
  })

  it('api-key with a trailing line break (a pasted secret) works', async () => {
    const server = await servers.serve((req, res) => {
      if (req.headers.authorization !== `Bearer ${KEY}`) return sendJson(res, 401, { error: 'bad key' })
      sendJson(res, req.method === 'POST' ? 201 : 200, { id: 'job-1', status: 'completed' })
    })
    const result = await run(server, { 'api-key': `${KEY}\n`, 'poll-interval': '50ms' })
    expect(result.outputs['outcome']).toBe('completed')
  })

  it('a one-character github-token: comment warns, the job is unaffected, and the runner log is not one long mask', async () => {
    const server = await servers.serve((req, res) =>
      sendJson(res, req.method === 'POST' ? 201 : 200, { id: 'job-1', status: 'completed' })
    )
    const github = await servers.github({ refuseWrites: 401 })
    const result = await runAction({
      githubToken: 'x',
      eventName: 'issues',
      event: { action: 'opened', issue: { number: 12 } },
      env: { GITHUB_API_URL: github.url },
      inputs: {
        'project-id': 'docs',
        'api-key': KEY,
        'base-url': server.url,
        prompt: 'Go',
        comment: 'true',
        'poll-interval': '50ms'
      }
    })
    expect(result.outputs['outcome']).toBe('completed')
    expect(result.exitCode).toBe(0)
    expect(warningAnnotations(result).join('\n')).toMatch(/github-token|too short|permission/)
  })

  it('project-id holding what looks like an admin key (swapped inputs) is never written into the public comment, nor its edits', async () => {
    const server = await servers.serve((_req, res) => sendJson(res, 401, { error: 'Invalid API key' }))
    const written: string[] = []
    const holder: { github?: Awaited<ReturnType<typeof servers.github>> } = {}
    holder.github = await servers.github({
      failAfterWriting: () => {
        written.push(...(holder.github?.comments.map((comment) => comment.body) ?? []))
        return undefined
      }
    })
    const result = await runAction({
      githubToken: 'ghs_inputs_attack_token_01',
      eventName: 'issues',
      event: { action: 'opened', issue: { number: 12 } },
      env: { GITHUB_API_URL: holder.github.url },
      inputs: { 'project-id': KEY, 'api-key': 'proj_12345', 'base-url': server.url, prompt: 'Go', comment: 'true' }
    })
    const decoded = written.map((body) => {
      const payload = /^<!-- \S+ \S+ (\S+) -->/.exec(body)?.[1] ?? ''
      return Buffer.from(payload, 'base64url').toString('utf8')
    })
    expect([...written, ...decoded].filter((text) => text.includes(KEY)).length).toBe(0)
    expect(result.summary).not.toContain(KEY.replaceAll('_', '&#95;'))
  })

  it('an input given empty (an unset inputs.x or vars.X forwarded) acts as if it were not given: its default', async () => {
    const server = await servers.serve((req, res) =>
      sendJson(res, req.method === 'POST' ? 201 : 200, { id: 'job-1', status: 'completed' })
    )
    const empty = { context: '', timeout: '', 'poll-interval': '', 'max-poll-interval': '', 'request-timeout': '' }
    const result = await run(server, {
      ...empty,
      'context-limit': '',
      wait: '',
      'follow-up': '',
      preview: '',
      comment: ''
    })
    expect(errorAnnotations(result)).toEqual([])
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1' })
    expect(result.stdout).toContain('(timeout 30m, polling every 5s growing to 30s)')
  })

  it('says that job-id wins when follow-up: true is given with it', async () => {
    const server = await servers.serve((req, res) =>
      sendJson(res, 200, { id: 'job-7', status: req.method === 'POST' ? 'active' : 'completed' })
    )
    const result = await run(server, { 'job-id': 'job-7', 'follow-up': 'true', 'poll-interval': '50ms' })
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-7' })
    expect(result.stdout).toContain(
      '::notice::Input "follow-up" is true, and "job-id" names the job: the prompt goes to that job.'
    )
    expect(server.requests.map((request) => `${request.method} ${request.url}`)[0]).toBe(
      'POST /v2/agent/docs/job/job-7/message'
    )
  })
})

describe('inputs, time and signals', () => {
  // This describe's step waits for job-5 (support/job-five.ts).
  const { STORY } = JOB_FIVE
  const run = runJobFive
  const { serve } = servers
  // A duration a timer cannot hold, one under the second a remote API needs, a timeout past 6h, a bare timeout under a
  // minute, and a base-url with its version path: rows of test/unit/inputs/settings.test.ts.
  it('refuses a key passed as project-id before any request, masked and shown nowhere', async () => {
    const server = await serve((_req, res) => completed(res))
    const swapped = 'mint_swapped_key_V8n3Qp7Xr2Lw'
    const result = await run(server, { 'project-id': swapped, 'api-key': 'proj_12345678' })
    expect(result.exitCode).toBe(1)
    expect(server.requests).toHaveLength(0)
    expect(result.stdout).toContain(`::add-mask::${swapped}`)
    expect(errorAnnotations(result)[0]).toContain('Input "project-id" holds an admin API key')
    expectNoPartOfKey(result, swapped)
  })

  it('sets outcome=error, result with every key, the other outputs empty, and a short summary on an input error', async () => {
    const server = await serve((_req, res) => completed(res))
    const result = await run(server, { timeout: 'soon', 'fail-on': 'nope' })
    expect(result.exitCode).toBe(1)
    const { result: json, ...outputs } = result.outputs
    // What fromJSON() in a later step reads: every key docs/reference.md lists, null where unknown.
    expect(JSON.parse(json ?? '')).toEqual({
      outcome: 'error',
      status: null,
      'job-id': null,
      prLink: null,
      'pr-number': null,
      'pr-repository': null,
      branch: null,
      'preview-url': null,
      'preview-status': null,
      'skip-reason': null,
      'action-taken': null,
      'requested-by': null,
      'batch-size': null,
      'batch-prs': null,
      guardrail: null,
      grounding: null,
      ungrounded: null,
      'duration-s': 0,
      'jobs-started': 0,
      sweep: null
    })
    expect(outputs).toEqual({
      status: '',
      outcome: 'error',
      'job-id': '',
      prLink: '',
      'pr-number': '',
      'pr-repository': '',
      job: '',
      branch: '',
      'docs-repository': '',
      'preview-url': '',
      'preview-status': '',
      'comment-url': '',
      'skip-reason': '',
      'action-taken': '',
      'requested-by': '',
      guardrail: '',
      grounding: '',
      ungrounded: '',
      'check-url': '',
      'batch-size': '',
      'batch-prs': '',
      'batch-from': '',
      'batch-to': '',
      sweep: ''
    })
    expect(result.summary).toContain('The step did not start: inputs are invalid.')
    expect(result.summary).toContain('<li>Input &quot;timeout&quot; must be a positive duration')
  })

  it('a second signal during shutdown does not kill the step before its outputs and summary are written', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, jobBody(STORY, 'active', null)))
    const result = await run(
      server,
      {},
      {
        onSpawn: (child) => {
          once(
            () => server.requests.length > 0,
            () => {
              child.kill('SIGINT')
              child.kill('SIGTERM')
              setTimeout(() => child.kill('SIGTERM'), 5)
            }
          )
        }
      }
    )
    expect(result.signal).toBeNull()
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ outcome: 'cancelled', status: 'active' })
    expect(result.summary).toContain('⏹️ Run cancelled')
  })

  it('logs the whole base-url, path included, in its first line, and durations as the action writes them (1m 30s)', async () => {
    const server = await serve((req, res) =>
      req.url?.startsWith('/gateway/v2/') ? completed(res) : res.writeHead(404).end()
    )
    const result = await run({ url: `${server.url}/gateway` }, { timeout: '1m 30s', 'request-timeout': '1m 5s' })
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')[2]).toContain(`Mintlify admin API at ${server.url}/gateway, project`)
    expect(result.stdout).toContain('(timeout 1m 30s,')
  })
})

describe("the refused start's result", () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run } = codeRepository(servers, { key: KEY, token: 'ghs_inputs_attack_token_01' })
  // One refusal from each stage a step can stop at before it starts: the event, the proxy (the inputs' is above).
  it.each([
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

describe('small things a new user hit', () => {
  const run = bundleRunner({
    githubToken: 'ghs_inputs_attack_token_01',
    inputs: { 'project-id': 'docs', 'api-key': KEY, 'poll-interval': '100ms', 'max-poll-interval': '200ms' }
  })
  const job = (res: ServerResponse, jobId: string, status: string) =>
    sendJson(res, 200, jobBody({ projectId: 'docs', jobId, apiKey: KEY, final: { status: 'completed' } }, status, null))
  it("keeps Octokit's 'with id undefined' out of the debug log", async () => {
    const github = await servers.github()
    const server = await servers.serve((_req, res) => job(res, 'job-1', 'completed'))
    const result = await run(
      server,
      { 'job-id': 'job-1', comment: 'true' },
      { ...onIssue(github), env: { GITHUB_API_URL: github.url, RUNNER_DEBUG: '1' } }
    )
    expect(result.stdout).toMatch(/::debug::GitHub: POST \/repos\/acme\/docs\/issues\/12\/comments - 201 in \d+ms/)
    expect(result.stdout).not.toContain('with id undefined')
  })

  it('says which file when GITHUB_OUTPUT cannot be written, in one error and no stack trace', async () => {
    const server = await servers.serve((_req, res) => job(res, 'job-1', 'completed'))
    const result = await run(server, { 'job-id': 'job-1' }, { env: { GITHUB_OUTPUT: '/nonexistent/output' } })
    expect(result.exitCode).toBe(1)
    expect(errorAnnotations(result)).toEqual([
      expect.stringContaining(
        "The step's outputs could not be written (Missing file at path: /nonexistent/output)"
      ) as string
    ])
    expect(result.stderr).not.toMatch(/\bat \S+ \(/)
  })
})
