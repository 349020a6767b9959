// The key and the tokens kept out of every place they could show. Quoted where the runner's masking cannot find it:
// in a prompt (a pasted command line) that the log shortens, the summary escapes and the tracking comment records; in
// an answer that quotes it as JSON, escaped, or in part, encoded, in a redirect, in a job; and tokens echoed by
// GitHub, pasted into a prompt, or so short that they are words. Each is redacted before it is shortened or escaped,
// so no form of it is shown.
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { jobBody, type Respond, sendJson } from '../../sim/admin-api.ts'
import { forMarkdown } from '../../src/text/untrusted.ts'
import { errorAnnotations, expectKeyNeverShown } from '../support/expectations.ts'
import { codeRepository, DOCS_TOKEN, pullEvent } from './support/code-repository.ts'
import { issueRunner } from './support/issue-step.ts'
import { completed, expectNoPartOfKey, inTurn, JOB_FIVE, runJobFive } from './support/job-five.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'

/** A key with a quote and a backslash, which JSON escapes and the summary's HTML escapes otherwise. */
const KEY = 'mint_q"uo\\te_secret_0123'
const JSON_ESCAPED = JSON.stringify(KEY).slice(1, -1)
const TOKEN = 'ghs_secrets_token_value_0123'
/** A prompt whose first line the log cuts inside the key. */
const PROMPT = `${'p'.repeat(88)} ${KEY} with curl -H "Authorization: Bearer ${KEY}"\nand a second line`

const servers = loopback()
const run = bundleRunner({ inputs: { 'project-id': 'proj', 'api-key': KEY, 'poll-interval': '50ms' } })

/** Every form of the key that a reader could see: as is, a part of it, JSON-escaped, HTML-escaped. */
function formsOf(key: string): string[] {
  return [key, key.slice(0, 10), JSON_ESCAPED, forMarkdown(key), forMarkdown(key.slice(0, 10))]
}

/** The log without the `::add-mask::` commands, which the runner consumes and never shows. */
function withoutMaskCommands(log: string): string {
  return log
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n')
}

function markerState(body: string): string {
  const payload = /^<!-- \S+ \S+ (\S+) -->/.exec(body)?.[1] ?? ''
  return Buffer.from(payload, 'base64url').toString('utf8')
}

describe('the key quoted in a prompt', () => {
  it('is sent as written, and shown nowhere: not in the log, the summary, the comment or its record', async () => {
    const { api, server } = await servers.agentApi({ projectId: 'proj', apiKey: KEY })
    const github = await servers.github()
    const result = await run(
      server,
      { prompt: PROMPT, comment: 'true' },
      { github, eventName: 'issues', event: { action: 'opened', issue: { number: 12 } } }
    )
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1' })
    expect(api.posts[0]?.prompt).toBe(PROMPT)
    const logLines = result.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
    const bodies = github.comments.map((comment) => comment.body)
    const records = bodies.map(markerState)
    for (const form of formsOf(KEY)) {
      expect(logLines.filter((line) => line.includes(form))).toEqual([])
      expect(result.summary).not.toContain(form)
      expect(bodies.filter((body) => body.includes(form))).toEqual([])
      expect(records.filter((record) => record.includes(form))).toEqual([])
    }
    expect(result.stdout).toContain(`with the prompt: ${'p'.repeat(88)} *** with`)
    expect(bodies.at(-1)).toContain(`- Prompt: \`${'p'.repeat(88)} *** with`)
    expectKeyNeverShown(result, KEY)
  })
})

describe('the key echoed in an answer', () => {
  it('is not shown JSON-escaped in the error details', async () => {
    const echo: Respond = (_req, res, index) =>
      index === 0
        ? sendJson(res, 500, { error: 'Internal error', details: { authorization: `Bearer ${KEY}` } })
        : sendJson(
            res,
            200,
            jobBody(
              { projectId: 'proj', jobId: 'job-2', apiKey: KEY, final: { status: 'completed' } },
              'completed',
              null
            )
          )
    const server = await servers.serve(echo)
    const result = await run(server, { 'job-id': 'job-2' })
    expect(result.outputs).toMatchObject({ outcome: 'completed' })
    expect(result.stdout).toContain('Poll failed: HTTP 500: Internal error (details: {"authorization":"Bearer ***"})')
    expect(result.stdout).not.toContain(JSON_ESCAPED)
    expectKeyNeverShown(result, KEY)
  })
})

describe('the key is never shown', () => {
  // This describe's step waits for job-5 (support/job-five.ts): its key and token are that step's.
  const { KEY, TOKEN, STORY, PR, ISSUE_EVENT } = JOB_FIVE
  const run = runJobFive
  const { serve } = servers
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

  // A key holding a line break or a control character is an input error that shows no part of it: rows of
  // test/unit/inputs/settings.test.ts, as the bundle meets one in careless-inputs.e2e.test.ts.
})

describe('secrets that are short', () => {
  const PR = 'https://github.com/acme/docs/pull/9'
  const story = (jobId: string) => ({ projectId: 'proj', jobId, apiKey: KEY, final: { status: 'completed' } })
  const job = (res: ServerResponse, jobId: string, status: string, prLink: string | null = null) =>
    sendJson(res, 200, jobBody(story(jobId), status, prLink))
  // A one-character token is careless-inputs.e2e.test.ts's; a word-part token here.
  it.each(['comp'])('a github-token of %j breaks neither the job nor its status', async (token) => {
    const server = await servers.serve((_req, res) => job(res, 'job-1', 'completed', PR))
    const result = await run(server, { 'job-id': 'job-1', 'github-token': token })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'completed', outcome: 'completed', prLink: PR })
    expect(JSON.parse(result.outputs['job'] ?? '{}')).toMatchObject({ id: 'job-1', status: 'completed', prLink: PR })
  })
})

describe('the key echoed by a refused start in mode: pair', () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run } = codeRepository(servers, { key: KEY, token: TOKEN })
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
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })
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

describe('hostile GitHub', () => {
  const runWith = issueRunner(servers, { key: KEY, token: TOKEN })

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
})
