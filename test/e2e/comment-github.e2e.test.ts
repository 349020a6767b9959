// The tracking comment against what GitHub answers: whose comment is whose (a user, an app, a look-alike of the app's
// name), a rate limit named as such, text and addresses that never pass on as they came, and a GitHub the step cannot
// reach or an event it cannot read, which leave the job's result as it was.
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sendJson } from '../../sim/admin-api.ts'
import type { FakeGitHubOptions } from '../../sim/github-api.ts'
import { warningAnnotations } from '../support/expectations.ts'
import { issueRunner } from './support/issue-step.ts'
import { completed, expectNoPartOfKey, JOB_FIVE, runJobFive } from './support/job-five.ts'
import { loopback } from './support/loopback.ts'
import type { ActionRun } from './support/run-bundle.ts'

const { KEY, TOKEN, PR, ISSUE_EVENT } = JOB_FIVE

const servers = loopback()
const { serve } = servers

const run = runJobFive

/** An event file that is not JSON, in a folder of its own: other test runs on the machine write theirs meanwhile. */
const NOT_JSON_EVENT = join(await mkdtemp(join(tmpdir(), 'event-')), 'event.json')
await writeFile(NOT_JSON_EVENT, '{"issue": ')

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

describe('hostile GitHub', () => {
  const runWith = issueRunner(servers, { key: KEY, token: TOKEN })

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
