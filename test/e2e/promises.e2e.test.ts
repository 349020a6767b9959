// The README's promises, held against a hostile admin API, a hostile GitHub, a careless user and the runner's own
// signals: the bundled dist/ run as the runner runs it, against loopback servers.
import { mkdtemp, writeFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { jobBody, type Respond, sendJson } from '../../sim/admin-api.ts'
import type { FakeGitHubOptions } from '../../sim/github-api.ts'
import { loopback } from './support/loopback.ts'
import { type ActionRun, bundleRunner, runAction } from './support/run-bundle.ts'
import { once, steppedClock } from './support/triggers.ts'
import { errorAnnotations, warningAnnotations } from '../support/expectations.ts'

const KEY = 'mint_K7q2Wx9LmP4rT8vN3bY6zH1cJ5dF0gSa'
const TOKEN = 'ghs_AbCdEfGhIjKlMnOpQrStUvWxYz012345'
const STORY = { projectId: 'proj', jobId: 'job-5', apiKey: KEY, final: { status: 'completed' } }
const PR = 'https://github.com/acme/docs/pull/5'
const INPUTS = {
  'project-id': 'proj',
  'job-id': 'job-5',
  'api-key': KEY,
  'poll-interval': '100ms',
  'max-poll-interval': '300ms'
}
const ISSUE_EVENT = { action: 'opened', issue: { number: 12, title: 'Docs' } }

const servers = loopback()
const { serve } = servers

const run = bundleRunner({ inputs: INPUTS, githubToken: TOKEN })

/** An event file that is not JSON, in a folder of its own: other test runs on the machine write theirs meanwhile. */
const NOT_JSON_EVENT = join(await mkdtemp(join(tmpdir(), 'event-')), 'event.json')
await writeFile(NOT_JSON_EVENT, '{"issue": ')

const completed = (res: ServerResponse, prLink: string | null = PR): void => {
  sendJson(res, 200, jobBody(STORY, 'completed', prLink))
}

/** Request i gets responders[i]; requests past the end get the last one. */
function inTurn(...responders: Respond[]): Respond {
  return (req, res, index) => responders[Math.min(index, responders.length - 1)]?.(req, res, index)
}

/** The log without the `::add-mask::` commands, which the runner consumes and never shows. */
function withoutMaskCommands(log: string): string {
  return log
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n')
}

/** Every piece of the key of 8 characters or more that appears in `text`. */
function keyPieces(text: string, key = KEY): string[] {
  const found: string[] = []
  for (let start = 0; start + 8 <= key.length; start++) {
    const piece = key.slice(start, start + 8)
    if (text.includes(piece)) found.push(piece)
  }
  return found
}

/** No part of the key anywhere the runner shows or passes on, but in the `::add-mask::` command it consumes. */
function expectNoPartOfKey(result: ActionRun, key = KEY): void {
  const shown = `${result.stdout}\n${result.stderr}`
    .split('\n')
    .filter((line) => line !== `::add-mask::${key}`)
    .join('\n')
  expect(keyPieces(shown, key)).toEqual([])
  expect(keyPieces(result.summary, key)).toEqual([])
  expect(keyPieces(JSON.stringify(result.outputs), key)).toEqual([])
}

describe('the key is never shown', () => {
  it('not even in part, when an API error message ends with it past the cut', async () => {
    const message = `${'x'.repeat(160)} rejected key ${KEY}`
    const server = await serve(
      inTurn(
        (_req, res) => sendJson(res, 500, { error: message }),
        (_req, res) => completed(res)
      )
    )
    const result = await run(server, {}, { env: { RUNNER_DEBUG: '1' } })
    expect(result.exitCode).toBe(0)
    expectNoPartOfKey(result)
  })

  it('not in a 4xx error that stops the step', async () => {
    const server = await serve((_req, res) => sendJson(res, 400, { error: `bad request for ${'y'.repeat(160)}${KEY}` }))
    const result = await run(server)
    expect(result.exitCode).toBe(1)
    expect(errorAnnotations(result)[0]).toContain('HTTP 400')
    expectNoPartOfKey(result)
  })

  it('not in another form: upper case, percent-encoded in part or in whole, or base64 at any alignment', async () => {
    const forms = [
      KEY.toUpperCase(),
      [...Buffer.from(KEY)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join(''),
      `mint%5f${KEY.slice(5)}`,
      Buffer.from(KEY).toString('base64'),
      Buffer.from(`Bearer ${KEY}`).toString('base64'),
      Buffer.from(`x:${KEY}`).toString('base64url')
    ]
    const server = await serve((_req, res) => sendJson(res, 401, { error: `rejected ${forms.join(' and ')}` }))
    const result = await run(server)
    expect(result.exitCode).toBe(1)
    expect(errorAnnotations(result)[0]).toContain('rejected *** and *** and *** and ***')
    const shown = `${withoutMaskCommands(result.stdout)}${result.stderr}${result.summary}`
    for (const form of forms) expect(shown).not.toContain(form.slice(form.length / 2 - 8, form.length / 2 + 8))
  })

  it('not in the comment-url output, when GitHub echoes the token in html_url', async () => {
    const api = await serve((_req, res) => completed(res))
    const github = await servers.github({
      htmlUrl: (comment) => `https://github.com/acme/docs/issues/12?t=${TOKEN.toUpperCase()}#issuecomment-${comment.id}`
    })
    const result = await run(
      api,
      { comment: 'true' },
      { eventName: 'issues', event: ISSUE_EVENT, env: { GITHUB_API_URL: github.url } }
    )
    expect(result.exitCode).toBe(0)
    expect(result.outputs['comment-url']).toMatch(
      /^https:\/\/github\.com\/acme\/docs\/issues\/12\?t=\*\*\*#issuecomment-\d+$/
    )
    expect(withoutMaskCommands(result.stdout).toUpperCase()).not.toContain(TOKEN.toUpperCase())
  })

  it("not in a redirect's Location header", async () => {
    const server = await serve((_req, res) =>
      res.writeHead(302, { location: `https://elsewhere.example/login?key=${KEY}&next=/` }).end()
    )
    const result = await run(server)
    expect(result.exitCode).toBe(1)
    expect(errorAnnotations(result)[0]).toContain('a redirect to https://elsewhere.example/login?key=***&next=/')
    expectNoPartOfKey(result)
  })

  it('not in the job output or the summary when the API echoes it inside a job', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, {
        ...jobBody(STORY, 'completed', PR),
        model: `model for ${KEY}`,
        source: { repository: `https://github.com/acme/docs?token=${encodeURIComponent(KEY)}`, ref: 'main' },
        debug: { headers: [`Authorization: Bearer ${KEY}`], [KEY]: true }
      })
    )
    const result = await run(server)
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.outputs['job'] ?? '')).toMatchObject({
      model: 'model for ***',
      debug: { headers: ['Authorization: Bearer ***'], '***': true }
    })
    expect(result.summary).toContain('model for &#42;&#42;&#42;')
    expect(result.summary).not.toContain('mint&#95;')
    expectNoPartOfKey(result)
  })

  it.each([
    ['a line break', 'mint_abc\ndef'],
    ['a control character', 'mint_abc\u0007def'],
    ['a zero-width space', 'mint_abc\u200bdef'],
    ['a space', 'mint_abc def']
  ])('a key holding %s is an input error at once, before any request', async (what, key) => {
    const server = await serve((_req, res) => completed(res))
    const result = await run(server, { 'api-key': key })
    expect(result.exitCode).toBe(1)
    expect(server.requests).toHaveLength(0)
    expect(errorAnnotations(result)[0]).toMatch(
      new RegExp(
        `Input "api-key" holds ${what} \\(U\\+[0-9A-F]{4}\\) at character 9, so it cannot be sent in an HTTP header`
      )
    )
    expect(result.outputs['outcome']).toBe('error')
  })
})

describe('prLink', () => {
  it('with a malformed percent-escape never crashes the step', async () => {
    const link = 'https://github.com/acme/d%E0%A4%A/pull/5'
    const server = await serve((_req, res) => completed(res, link))
    const result = await run(server)
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'completed', prLink: link, 'pr-number': '', 'pr-repository': '' })
  })

  it.each([
    ['a look-alike host', 'https://github.com.evil.example/octo/docs/pull/17'],
    ['a host that is not GitHub', 'https://evil.example/octo/docs/pull/17'],
    ['a number too large to be exact', 'https://github.com/acme/docs/pull/100000000000000000000000']
  ])('gives no pr-number or pr-repository for %s', async (_, link) => {
    const server = await serve((_req, res) => completed(res, link))
    const result = await run(server)
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ prLink: link, 'pr-number': '', 'pr-repository': '' })
  })

  it("gives pr-number and pr-repository on the runner's own GitHub Enterprise Server", async () => {
    const link = 'https://ghes.corp.example/org/handbook/pull/77'
    const server = await serve((_req, res) => completed(res, link))
    const result = await run(server, {}, { env: { GITHUB_SERVER_URL: 'https://ghes.corp.example' } })
    expect(result.outputs).toMatchObject({ prLink: link, 'pr-number': '77', 'pr-repository': 'org/handbook' })
  })
})

describe('inputs, time and signals', () => {
  it.each([
    ['poll-interval', { 'poll-interval': '1000h', 'max-poll-interval': '1000h' }],
    ['timeout', { timeout: '600h' }],
    ['max-poll-interval', { 'max-poll-interval': '1000h' }],
    ['request-timeout', { 'request-timeout': '9999h' }]
  ])(
    'a %s longer than a timer can hold is an input error, so nothing polls faster than asked',
    async (name, inputs) => {
      const server = await serve((_req, res) => sendJson(res, 200, jobBody(STORY, 'active', null)))
      const result = await run(server, { timeout: '2s', ...inputs })
      expect(result.exitCode).toBe(1)
      expect(server.requests).toHaveLength(0)
      expect(errorAnnotations(result)[0]).toContain(`Input "${name}"`)
      expect(errorAnnotations(result)[0]).toContain('is longer than a timer can hold (about 24.8 days)')
    }
  )

  it.each([
    ['poll-interval', { 'poll-interval': '1ms', 'max-poll-interval': '1ms' }],
    ['request-timeout', { 'request-timeout': '1ms' }]
  ])(
    'a %s under a second against a remote API is an input error, so nothing floods it or gives up at once',
    async (name, inputs) => {
      // A name that never resolves: the step must stop before it tries.
      const result = await run({ url: 'https://api.mintlify.test' }, inputs)
      expect(result.exitCode).toBe(1)
      expect(errorAnnotations(result)[0]).toContain(`Input "${name}" (1ms) must be at least 1s against a remote API`)
    }
  )

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

  it('warns that a timeout past 6h outlasts a GitHub-hosted runner', async () => {
    const server = await serve((_req, res) => completed(res))
    const result = await run(server, { timeout: '7h' })
    expect(result.exitCode).toBe(0)
    expect(warningAnnotations(result)).toEqual([
      expect.stringContaining('longer than a GitHub-hosted runner lets a job run (6h)')
    ])
  })

  it('accepts durations as the action writes them, such as 1m 30s', async () => {
    const server = await serve((_req, res) => completed(res))
    const result = await run(server, { timeout: '1m 30s', 'request-timeout': '1m 5s' })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('(timeout 1m 30s,')
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
      'duration-s': 0,
      'jobs-started': 0
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
      'check-url': '',
      'batch-size': '',
      'batch-prs': '',
      'batch-from': '',
      'batch-to': ''
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

  it('catches a base-url that carries the version path, before any request', async () => {
    const result = await runAction({ inputs: { ...INPUTS, 'base-url': 'https://api.mintlify.com/v2' } })
    expect(result.exitCode).toBe(1)
    expect(errorAnnotations(result)[0]).toContain(
      'Input "base-url" (https://api.mintlify.com/v2) must be the API\'s root, without a version path'
    )
  })

  it('logs the whole base-url, path included, in its first line', async () => {
    const server = await serve((req, res) =>
      req.url?.startsWith('/gateway/v2/') ? completed(res) : res.writeHead(404).end()
    )
    const result = await run({ url: `${server.url}/gateway` })
    expect(result.exitCode).toBe(0)
    expect(result.stdout.split('\n')[2]).toContain(`Mintlify admin API at ${server.url}/gateway, project`)
  })
})

describe('liberal in what it reads, strict in what it concludes', () => {
  it.each(['Completed', ' COMPLETED '])('ends the wait on status %j', async (status) => {
    const server = await serve((_req, res) => sendJson(res, 200, { ...jobBody(STORY, 'completed', PR), status }))
    const result = await run(server, { timeout: '3s' })
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(1)
    expect(result.outputs).toMatchObject({ status: 'completed', outcome: 'completed', prLink: PR })
  })

  it('judges an answer by its body, not its Content-Type: a start and its job labelled text/html are read', async () => {
    const labelled = (res: ServerResponse, status: number, body: unknown): void => {
      const text = JSON.stringify(body)
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(text) })
      res.end(text)
    }
    const server = await serve((req, res) =>
      req.method === 'POST'
        ? labelled(res, 201, jobBody(STORY, 'active', null))
        : labelled(res, 200, jobBody(STORY, 'completed', PR))
    )
    const result = await run(server, { 'job-id': '', prompt: 'Document the new endpoint', timeout: '30s' })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-5', prLink: PR })
    expect(result.stdout).not.toContain('does not look like the Mintlify admin API')
  })

  it('ignores a descriptive field of the wrong type, with a debug line, instead of retrying', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { ...jobBody(STORY, 'completed', PR), model: 4 }))
    const result = await run(server, { timeout: '3s' }, { env: { RUNNER_DEBUG: '1' } })
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(1)
    expect(result.stdout).toContain('left out "model" (a number): not the type the API documents')
  })

  it('accepts a UTF-8 byte-order mark before the JSON', async () => {
    const server = await serve((_req, res) => {
      const text = `\uFEFF${JSON.stringify(jobBody(STORY, 'completed', PR))}`
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text)
    })
    const result = await run(server, { timeout: '3s' })
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(1)
  })

  it('keeps every output on one line, whatever line breaks the API puts in its answer', async () => {
    // The first poll moves the step's clock past its timeout.
    const clock = steppedClock()
    const server = await serve(
      clock.jumpingAt((_req, res) =>
        sendJson(res, 200, {
          ...jobBody(STORY, 'completed', PR),
          status: 'still\nthinking\u2028::error::forged',
          model: 'claude\u2028next\u0085line'
        })
      )
    )
    const result = await run(server, { ...clock.inputs, 'fail-on': 'failed' }, clock.with())
    expect(result.outputs['outcome']).toBe('timeout')
    // Not one lower-case word: no status output at all, and the log shows it on one line.
    expect(result.outputs['status']).toBe('')
    expect(result.stdout).toContain('still thinking ::error::forged')
    const job = result.outputs['job'] ?? ''
    expect(job).not.toMatch(/[\n\r\u0085\u2028\u2029]/)
    expect(job).toContain('claude\\u2028next\\u0085line')
    expect(JSON.parse(job)).toMatchObject({ model: 'claude\u2028next\u0085line' })
    expect(result.stdout).not.toMatch(/^::error::forged/m)
  })

  it("retries a 200 that is another job's answer, and takes the job's own answer after it", async () => {
    const server = await serve((_req, res, index) =>
      index === 0 ? sendJson(res, 200, { ...jobBody(STORY, 'completed', PR), id: 'job-6' }) : completed(res)
    )
    const result = await run(server)
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(2)
    expect(result.outputs).toMatchObject({ outcome: 'completed', status: 'completed', prLink: PR })
    expect(result.stdout).toContain('"id" is "job-6", not "job-5" (another job\'s answer)')
  })

  it("names another job's answer when it persists to the timeout", async () => {
    const clock = steppedClock()
    const server = await serve(
      clock.jumpingAt((_req, res) => sendJson(res, 200, { ...jobBody(STORY, 'completed', PR), id: 'job-6' }))
    )
    const result = await run(server, clock.inputs, clock.with())
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ outcome: 'timeout', status: '', prLink: '' })
    expect(errorAnnotations(result)[0]).toContain('"id" is "job-6", not "job-5" (another job\'s answer)')
  })
})

describe('the GitHub side', () => {
  async function withGitHub(
    github: FakeGitHubOptions,
    env: Record<string, string> = {},
    inputs: Record<string, string> = {}
  ) {
    const api = await serve((_req, res) => completed(res))
    const fake = await servers.github(github)
    const result = await run(
      api,
      { comment: 'true', ...inputs },
      { eventName: 'issues', event: ISSUE_EVENT, env: { GITHUB_API_URL: fake.url, ...env } }
    )
    return { result, github: fake }
  }

  /** A completed job passes with its outputs, whatever happened to the comment. */
  function expectJobReported(result: ActionRun): void {
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'completed', outcome: 'completed', prLink: PR, 'pr-number': '5' })
  }

  it("edits only its own comment: another user's comment with the marker stays as it was", async () => {
    const forged = '<!-- wait-for-mintlify-agent-job: job-5 -->\nI agree with this change'
    const { result, github } = await withGitHub({ existing: [{ issue: 12, body: forged, user: 'mallory' }] })
    expectJobReported(result)
    expect(github.comments.find((comment) => comment.user === 'mallory')?.body).toBe(forged)
    const own = github.comments.filter((comment) => comment.user === 'github-actions[bot]')
    expect(own).toHaveLength(1)
    expect(github.calls.filter((call) => call.startsWith('PATCH'))).toEqual([
      `PATCH /repos/acme/docs/issues/comments/${own[0]?.id ?? ''}`
    ])
  })

  it("finds its own comment as an app's installation token, whose identity GraphQL tells", async () => {
    const own = '<!-- wait-for-mintlify-agent-job: job-5 -->\nan earlier outcome'
    const { github } = await withGitHub({
      viewer: 'docs-helper[bot]',
      existing: [
        { issue: 12, body: own, user: 'docs-helper[bot]' },
        { issue: 12, body: own, user: 'github-actions[bot]' }
      ]
    })
    expect(github.comments).toHaveLength(2)
    expect(github.comments[0]?.body).toContain('Mintlify agent job completed')
    expect(github.comments[1]?.body).toBe(own)
  })

  it("does not take a user who registered the app's name without [bot] for the app", async () => {
    const forged = '<!-- wait-for-mintlify-agent-job: job-5 -->\nlooks like the app'
    const { github } = await withGitHub({
      viewer: 'docs-helper[bot]',
      existing: [{ issue: 12, body: forged, user: 'docs-helper' }]
    })
    expect(github.comments).toHaveLength(2)
    expect(github.comments[0]?.body).toBe(forged)
    expect(github.comments[1]?.user).toBe('docs-helper[bot]')
    const patched = github.calls.filter((call) => call.startsWith('PATCH'))
    expect(patched.every((call) => call.endsWith(`/comments/${github.comments[1]?.id ?? ''}`))).toBe(true)
  })

  it('never lets GitHub text become a workflow command or a line break in an output', async () => {
    const { result } = await withGitHub({
      refuseWrites: 422,
      intercept: (call, _req, res) => {
        if (!call.startsWith('POST /repos')) return false
        sendJson(res, 422, { message: `Validation Failed\n::error::forged\n::add-mask::x ${TOKEN}`, errors: [] })
        return true
      }
    })
    expectJobReported(result)
    const lines = result.stdout.split('\n')
    expect(lines.filter((line) => /^::(error|add-mask|stop-commands)::/.test(line))).toEqual([
      `::add-mask::${KEY}`,
      `::add-mask::${TOKEN}`
    ])
    expect(warningAnnotations(result)[0]).toContain('Validation Failed ::error::forged ::add-mask::x ***')
    expectNoPartOfKey(result, TOKEN)
  })

  it('passes on no html_url that is not an http(s) URL', async () => {
    const { result } = await withGitHub({ htmlUrl: () => 'javascript:alert(1)//\n::error::x' })
    expectJobReported(result)
    expect(result.outputs['comment-url']).toBe('')
    const warnings = warningAnnotations(result)
    expect(warnings.length).toBeGreaterThan(0)
    for (const warning of warnings) expect(warning).toContain('GitHub gave no http(s) address for it')
  })

  it.each([
    [
      'a secondary rate limit',
      { 'retry-after': '3600' },
      403,
      "GitHub's secondary rate limit for this token was reached"
    ],
    [
      'the rate limit',
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600) },
      403,
      "GitHub's rate limit for this token was reached"
    ],
    ['a 429', { 'retry-after': '600' }, 429, "GitHub's secondary rate limit for this token was reached"]
  ])('names %s that outlasts the deadline, instead of blaming permissions', async (_, headers, status, warning) => {
    const { result, github } = await withGitHub({
      intercept: (call, _req, res) => {
        if (!call.startsWith('POST /repos')) return false
        const message =
          'x-ratelimit-remaining' in headers ? 'API rate limit exceeded' : 'You have exceeded a secondary rate limit'
        sendJson(res, status, { message }, headers)
        return true
      }
    })
    expectJobReported(result)
    // The comment is tried when the job starts and again when it ends: each try gives up at once, naming the limit.
    const warnings = warningAnnotations(result)
    expect(warnings).toHaveLength(2)
    for (const message of warnings) {
      expect(message).toContain(warning)
      expect(message).toMatch(/past the deadline of (1m|[1-5]?\ds)\./)
      expect(message).not.toContain('permission')
    }
    expect(github.calls.filter((call) => call.startsWith('POST /repos'))).toHaveLength(2)
  })

  it.each([
    ['a malformed GITHUB_API_URL', { GITHUB_API_URL: 'not a url' }],
    ['an event file that is not JSON', { GITHUB_EVENT_PATH: NOT_JSON_EVENT }]
  ])('turns %s into a warning, and the job still passes', async (_, env) => {
    const { result } = await withGitHub({}, env)
    expectJobReported(result)
    expect(warningAnnotations(result)).toEqual([expect.stringContaining('comment')])
    expect(result.outputs['comment-url']).toBe('')
  })
})
