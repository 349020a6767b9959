// The bundled action with `comment: true`, against loopback servers playing the admin API and GitHub's REST API: one
// comment per job, found again by its own record (not the comment a person edited last), posted afresh when deleted,
// kept within GitHub's size, and a missing permission said once.
import { describe, expect, it } from 'vitest'
import { jobBody, playJob, type RunningServer, sendJson } from '../../sim/admin-api.ts'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import type { FakeGitHub, FakeGitHubOptions } from '../../sim/github-api.ts'
import {
  markerOf,
  promptHash,
  readMarker,
  type Submission as TrackedRequest,
  type TrackingState
} from '../../src/github/tracking-record.ts'
import { renderComment } from '../../src/report/comment-body.ts'
import { createdThenPolled } from './support/created-then-polled.ts'
import { onIssue, running } from './support/issue-step.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner, runAction } from './support/run-bundle.ts'
import { once, onSlowClock } from './support/triggers.ts'
import { expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'

const KEY = 'mint_comment_secret'
const TOKEN = 'ghs_comment_token_abc'
const PR = 'https://github.com/acme/docs/pull/77'
const ISSUE_EVENT = { action: 'opened', issue: { number: 12, title: 'Document the new API' } }

const servers = loopback()

interface Scenario {
  readonly jobId?: string
  readonly final?: { status: string; prLink?: string | null }
  readonly github?: FakeGitHubOptions
  readonly eventName?: string
  readonly event?: unknown
  readonly inputs?: Record<string, string>
}

async function setUp(scenario: Scenario = {}): Promise<{ api: RunningServer; github: FakeGitHub }> {
  const jobId = scenario.jobId ?? 'job-1'
  const api = await servers.serve(
    playJob({
      projectId: 'proj',
      jobId,
      apiKey: KEY,
      activePolls: 1,
      final: scenario.final ?? { status: 'completed', prLink: PR }
    })
  )
  const github = await servers.github(scenario.github)
  return { api, github }
}

async function runWithComment(api: RunningServer, github: FakeGitHub, scenario: Scenario = {}) {
  return runAction({
    inputs: {
      'project-id': 'proj',
      'job-id': scenario.jobId ?? 'job-1',
      'api-key': KEY,
      'base-url': api.url,
      'poll-interval': '50ms',
      comment: 'true',
      ...scenario.inputs
    },
    eventName: scenario.eventName ?? 'issues',
    event: scenario.event ?? ISSUE_EVENT,
    githubToken: TOKEN,
    env: { GITHUB_API_URL: github.url }
  })
}

describe('comment: true', () => {
  it('keeps one tracking comment on the issue that started the run, with the token, at GITHUB_API_URL', async () => {
    const { api, github } = await setUp()
    const run = await runWithComment(api, github)
    expect(run.exitCode).toBe(0)
    // Posted while the job runs, then read again (another run may have recorded on it) and edited with the outcome.
    const id = github.comments[0]?.id ?? ''
    expect(github.calls).toEqual([
      'POST /graphql',
      'GET /repos/acme/docs/issues/12/comments',
      'POST /repos/acme/docs/issues/12/comments',
      `GET /repos/acme/docs/issues/comments/${id}`,
      `PATCH /repos/acme/docs/issues/comments/${id}`
    ])
    expect(github.requests.every((request) => request.headers.authorization === `token ${TOKEN}`)).toBe(true)
    const [comment] = github.comments
    expect(comment?.issue).toBe(12)
    expect(comment?.body).toMatch(/^<!-- wait-for-mintlify-agent-job: job-1 [\w-]+ -->\n/)
    expect(comment?.body).toContain(`opened a pull request: <a href="${PR}">${PR}</a>`)
    expect(comment?.body).toContain('<a href="https://github.com/acme/docs/actions/runs/4242">workflow run</a>')
    expect(comment?.body).toContain('job `job-1`')
    expect(run.outputs['comment-url']).toBe(`https://github.com/acme/docs/issues/12#issuecomment-${comment?.id ?? ''}`)
    expect(run.stdout).toContain(`Tracking comment: ${run.outputs['comment-url'] ?? ''}`)
    expectKeyNeverShown(run, KEY)
    expectKeyNeverShown(run, TOKEN)
  })

  // The issue or pull request of every other event: rows of test/unit/github/thread.test.ts.
  it('comments on issue-number when given, e.g. from workflow_dispatch', async () => {
    const { api, github } = await setUp()
    const run = await runWithComment(api, github, {
      eventName: 'workflow_dispatch',
      event: {},
      inputs: { 'issue-number': '56' }
    })
    expect(run.exitCode).toBe(0)
    expect(github.comments.map((comment) => comment.issue)).toEqual([56])
  })

  it('updates its comment on a re-run instead of posting another', async () => {
    const { api, github } = await setUp({ final: { status: 'completed', prLink: null } })
    await runWithComment(api, github)
    const first = await runWithComment(api, github)
    expect(github.comments).toHaveLength(1)
    expect(github.calls.filter((call) => call.startsWith('POST /repos'))).toHaveLength(1)
    expect(new Set(github.calls.filter((call) => call.startsWith('PATCH')))).toEqual(
      new Set([`PATCH /repos/acme/docs/issues/comments/${github.comments[0]?.id ?? ''}`])
    )
    expect(github.comments[0]?.body).toContain(
      'the agent opened no pull request (it changed nothing, or published directly'
    )
    expect(first.outputs['comment-url']).toContain(`#issuecomment-${github.comments[0]?.id ?? ''}`)
  })

  it('finds its comment on a later page of a long thread', async () => {
    const existing = Array.from({ length: 150 }, (_, i) => ({ issue: 12, body: `comment ${i}`, user: 'someone' }))
    existing.splice(120, 0, {
      issue: 12,
      body: '<!-- wait-for-mintlify-agent-job: job-1 -->\nold outcome',
      user: 'github-actions[bot]'
    })
    existing.push({
      issue: 12,
      body: '> <!-- wait-for-mintlify-agent-job: job-1 -->\n> quoted by a person',
      user: 'someone'
    })
    const { api, github } = await setUp({ github: { existing } })
    await runWithComment(api, github)
    expect(github.comments).toHaveLength(152)
    expect(github.comments.filter((comment) => comment.body.includes('old outcome'))).toHaveLength(0)
    expect(github.comments[120]?.body).toContain('opened a pull request')
    expect(github.comments.at(-1)?.body).toContain('quoted by a person')
  })

  it('gives each job on the same issue its own comment', async () => {
    const first = await setUp({ jobId: 'job-a' })
    const github = first.github
    await runWithComment(first.api, github, { jobId: 'job-a' })
    const second = await servers.serve(
      playJob({ projectId: 'proj', jobId: 'job-b', apiKey: KEY, final: { status: 'failed' } })
    )
    await runWithComment(second, github, { jobId: 'job-b' })
    expect(github.comments.map((comment) => comment.body.split('\n')[0]?.split(' ').slice(0, 3).join(' '))).toEqual([
      '<!-- wait-for-mintlify-agent-job: job-a',
      '<!-- wait-for-mintlify-agent-job: job-b'
    ])
  })

  it('comments a failed job, and still fails the step', async () => {
    const { api, github } = await setUp({ final: { status: 'failed' } })
    const run = await runWithComment(api, github)
    expect(run.exitCode).toBe(1)
    expect(github.comments[0]?.body).toContain('❌ **Mintlify agent job failed**')
    expect(run.outputs['comment-url']).not.toBe('')
  })

  it('makes no API call and warns when the run has no issue or pull request', async () => {
    const { api, github } = await setUp()
    const run = await runWithComment(api, github, { eventName: 'push', event: { ref: 'refs/heads/main' } })
    expect(run.exitCode).toBe(0)
    expect(github.calls).toEqual([])
    expect(warningAnnotations(run)).toEqual([
      expect.stringContaining('the "push" event that started this run is about no issue or pull request')
    ])
    expect(run.outputs).toMatchObject({ status: 'completed', 'comment-url': '' })
  })

  it('retries a 502 from GitHub', async () => {
    const { api, github } = await setUp({ github: { failFirst: [502] } })
    const run = await runWithComment(api, github)
    expect(run.exitCode).toBe(0)
    const id = github.comments[0]?.id ?? ''
    expect(github.calls).toEqual([
      'POST /graphql',
      'POST /graphql',
      'GET /repos/acme/docs/issues/12/comments',
      'POST /repos/acme/docs/issues/12/comments',
      `GET /repos/acme/docs/issues/comments/${id}`,
      `PATCH /repos/acme/docs/issues/comments/${id}`
    ])
    expect(github.comments).toHaveLength(1)
  })

  // One as the bundle meets it; the permission a pull request's comment needs, and what a 404 says of an issue-number,
  // are rows of test/unit/github/thread.test.ts.
  it.each([['issues', ISSUE_EVENT, 'issues: write']])(
    'turns a 403 on %s into a warning naming the missing permission, keeping the outcome',
    async (eventName, event, permission) => {
      const { api, github } = await setUp({ github: { refuseWrites: 403 } })
      const run = await runWithComment(api, github, { eventName, event })
      expect(run.exitCode).toBe(0)
      expect(run.outputs).toMatchObject({ status: 'completed', prLink: PR, 'comment-url': '' })
      const warnings = warningAnnotations(run)
      expect(warnings.length).toBeGreaterThan(0)
      for (const warning of warnings) {
        expect(warning).toContain('the token lacks permission')
        expect(warning).toContain(`permissions: ${permission}`)
        expect(warning).toContain('Resource not accessible by integration')
      }
    }
  )

  it("turns a 404 on the event's own issue into a warning about the token, not about an issue-number never set", async () => {
    const { api, github } = await setUp({ github: { refuseWrites: 404 } })
    const run = await runWithComment(api, github)
    expect(run.exitCode).toBe(0)
    const warnings = warningAnnotations(run)
    expect(warnings.length).toBeGreaterThan(0)
    for (const warning of warnings) {
      expect(warning).toContain('Could not comment on issue #12 in acme/docs: it was not found')
      expect(warning).toContain('It is the one the event is about')
      expect(warning).toContain('check github-token')
      expect(warning).not.toContain('issue-number')
    }
  })
})

describe('two runs on one tracking comment', () => {
  const runOn = bundleRunner({
    githubToken: TOKEN,
    eventName: 'issues',
    event: ISSUE_EVENT,
    inputs: {
      'project-id': 'proj',
      'api-key': KEY,
      'poll-interval': '100ms',
      'max-poll-interval': '200ms',
      comment: 'true'
    }
  })

  function recordsOf(body: string): { run: string; kind: string }[] {
    const payload = /^<!-- \S+ \S+ (\S+) -->/.exec(body)?.[1] ?? ''
    const state = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8') || '{}') as {
      requests?: { run: string; kind: string }[]
    }
    return (state.requests ?? []).map(({ run, kind }) => ({ run, kind }))
  }

  it("a waiting run's edit keeps the follow-up another run recorded meanwhile, so that run's re-run sends nothing", async () => {
    const api = simulateAgentApi({
      projectId: 'proj',
      apiKey: KEY,
      run: { activePolls: Infinity, final: { status: 'completed', prLink: PR } }
    })
    const server = await servers.serve(api.respond)
    const github = await servers.github()
    // Run 100 starts the job and waits for it.
    const starter = runOn(server, { prompt: 'Document /users' }, { github, env: { GITHUB_RUN_ID: '100' } })
    await until(() => github.comments[0]?.body.includes('Mintlify agent job running') ?? false)
    // Meanwhile run 200 sends a follow-up to the job on the issue, recorded on the same comment, and does not wait.
    const followUp = { prompt: 'Cover the errors too', 'follow-up': 'true', wait: 'false' }
    const follower = await runOn(server, followUp, { github, env: { GITHUB_RUN_ID: '200' } })
    expect(follower.outputs).toMatchObject({ outcome: 'started', 'job-id': 'job-1' })
    // Only then does the job end, and the starter edit the comment: after the follow-up was recorded there.
    const job = api.jobs.get('job-1')
    if (job) job.run = { activePolls: 0, final: { status: 'completed', prLink: PR } }
    const started = await starter
    expect(started.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1' })
    expect(github.comments).toHaveLength(1)
    expect(recordsOf(github.comments[0]?.body ?? '')).toEqual([
      { run: '100', kind: 'start' },
      { run: '200', kind: 'follow-up' }
    ])
    // Re-running the follow-up's run finds what it sent, and sends nothing again.
    const rerun = await runOn(server, followUp, { github, env: { GITHUB_RUN_ID: '200', GITHUB_RUN_ATTEMPT: '2' } })
    expect(rerun.outputs['job-id']).toBe('job-1')
    expect(api.posts.map((post) => post.what)).toEqual(['create', 'follow-up job-1'])
  })
})

describe('the tracking comment', () => {
  const PROJECT = 'docs'
  const FAST = { 'poll-interval': '100ms', 'max-poll-interval': '200ms' }
  const BOT = 'github-actions[bot]'
  const run = bundleRunner({ githubToken: TOKEN, inputs: { 'project-id': PROJECT, 'api-key': KEY, ...FAST } })
  const api = createdThenPolled(servers)
  const story = (jobId: string) => ({ projectId: PROJECT, jobId, apiKey: KEY, final: { status: 'completed' } })
  /** A tracking comment's body as the action writes it: the marker for `state`, and a line of text. */
  const tracking = (state: TrackingState, text = 'an earlier report'): string => `${markerOf(state)}\n${text}`
  const request = (overrides: Partial<TrackedRequest> = {}): TrackedRequest => ({
    kind: 'start',
    run: '4242',
    attempt: 1,
    prompt: promptHash('Document /users'),
    line: 'Document /users',
    project: PROJECT,
    at: Date.parse('2026-11-22T09:00:00Z'),
    ...overrides
  })
  it('follows up the job the action reported last by its own record, not the comment a person edited last', async () => {
    const github = await servers.github({
      existing: [
        {
          issue: 12,
          user: BOT,
          body: tracking({ job: 'job-1', requests: [request({ at: Date.parse('2026-11-20T09:00:00Z') })] })
        },
        {
          issue: 12,
          user: BOT,
          body: tracking({ job: 'job-2', requests: [request({ at: Date.parse('2026-11-21T09:00:00Z') })] })
        }
      ]
    })
    // A maintainer fixes a typo in the older comment, so GitHub now lists it as the one updated last.
    const older = github.comments[0]
    if (older) Object.assign(older, { body: `${older.body} (typo fixed)`, updatedAt: '2026-11-23T09:00:00Z' })
    const { api, server } = await servers.agentApi({
      projectId: PROJECT,
      apiKey: KEY,
      existing: [running('job-1'), { jobId: 'job-2', activePolls: 0, final: { status: 'completed', prLink: PR } }]
    })
    const result = await run(
      server,
      { prompt: 'Also the errors', 'follow-up': 'true', comment: 'true' },
      onIssue(github)
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(api.posts).toEqual([{ what: 'follow-up job-2', prompt: 'Also the errors' }])
  })

  it('keeps one comment per job when GitHub made a comment but answered 502', async () => {
    const github = await servers.github({
      failAfterWriting: (call, write) => (call.startsWith('POST') && write === 0 ? 502 : undefined)
    })
    const { server } = await servers.agentApi({
      projectId: PROJECT,
      apiKey: KEY,
      run: { activePolls: 1, final: { status: 'completed', prLink: PR } }
    })
    const result = await run(server, { prompt: 'Document /users', comment: 'true' }, onIssue(github))
    expect(result.exitCode, result.stdout).toBe(0)
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain('Mintlify agent job completed')
    expect(readMarker(github.comments[0]?.body)?.job).toBe('job-1')
  })

  it('posts a fresh comment when its comment was deleted, and names that one in comment-url', async () => {
    const github = await servers.github()
    const { api, server } = await servers.agentApi({ projectId: PROJECT, apiKey: KEY, run: running('') })
    const result = await run(
      server,
      // The job ends once the comment is deleted: the timeout only stops a step that never gets there.
      { prompt: 'Document /users', comment: 'true', timeout: '5m' },
      {
        ...onIssue(github),
        onSpawn: () => {
          // Once the comment says the job runs, a person deletes it; then the job completes.
          once(
            () => github.comments[0]?.body.includes('Mintlify agent job running') ?? false,
            () => {
              github.comments.splice(0)
              const job = api.jobs.get('job-1')
              if (job) Object.assign(job, { run: { activePolls: 0, final: { status: 'completed', prLink: PR } } })
            }
          )
        }
      }
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain('Mintlify agent job completed')
    expect(result.outputs['comment-url']).toContain(`#issuecomment-${github.comments[0]?.id ?? ''}`)
    expect(warningAnnotations(result)).toEqual([
      'The tracking comment had been deleted from the issue, so a new one was posted.'
    ])
    expect(result.stdout).not.toContain('issue-number')
  })

  it('finds its own comment among more than 10,000, reading the newest first, and says the search was cut', async () => {
    const chatter = Array.from({ length: 10_050 }, (_, n) => ({ issue: 12, user: 'someone', body: `comment ${n}` }))
    const own = { issue: 12, user: BOT, body: tracking({ job: 'job-1', requests: [request()] }) }
    const github = await servers.github({ existing: [...chatter, own] })
    const { api, server } = await servers.agentApi({
      projectId: PROJECT,
      apiKey: KEY,
      existing: [{ jobId: 'job-1', activePolls: 1, final: { status: 'completed', prLink: PR } }]
    })
    // A hundred pages on a busy machine may take longer than GitHub's deadline of a minute: the step's clock runs slow,
    // so that what ends the search is its cap.
    const result = await run(
      server,
      { prompt: 'Document /users', comment: 'true' },
      onSlowClock(onIssue(github, { GITHUB_RUN_ATTEMPT: '2' }))
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(api.posts).toEqual([])
    expect(result.outputs).toMatchObject({ 'job-id': 'job-1', outcome: 'completed' })
    expect(warningAnnotations(result)).toContain(
      'issue #12 has more than 10,000 comments: the search for tracking comments read the oldest 100 and the newest 9,900.'
    )
  })

  it('shows text from the API as code, so it mentions nobody', async () => {
    const github = await servers.github()
    const server = await api(
      (res) => sendJson(res, 201, { id: 'job_9', status: 'active' }),
      (res) => sendJson(res, 200, { ...jobBody(story('job_9'), 'failed', null), model: '@octocat see #12' })
    )
    const result = await run(server, { prompt: 'Document /users', comment: 'true', 'fail-on': '' }, onIssue(github))
    expect(result.exitCode, result.stdout).toBe(0)
    const body = github.comments[0]?.body ?? ''
    expect(body).toContain('model `@octocat see #12`')
    expect(body.replaceAll(/`[^`]*`/g, '')).not.toMatch(/@octocat|#12/)
  })

  it("keeps the comment within GitHub's 65,536 characters, however long the project id, leaving out the oldest follow-ups", async () => {
    const project = 'p'.repeat(1500)
    // The comment a run before this one wrote, as full as GitHub allows: one more follow-up would not fit.
    let state: TrackingState = { job: 'job-1', requests: [] }
    for (let n = 0; ; n++) {
      const kind = n === 0 ? 'start' : 'follow-up'
      const next = { ...state, requests: [...state.requests, request({ kind, run: String(n), project })] }
      if (`${markerOf(next)}\n${renderComment(next, { kind: 'active' }, 'https://x')}`.length > 65_000) break
      state = next
    }
    const github = await servers.github({ existing: [{ issue: 12, user: BOT, body: tracking(state) }] })
    const { server } = await servers.agentApi({
      projectId: project,
      apiKey: KEY,
      existing: [{ jobId: 'job-1', activePolls: 0, final: { status: 'completed', prLink: PR } }]
    })
    const result = await runAction({
      githubToken: TOKEN,
      ...onIssue(github),
      inputs: {
        'project-id': project,
        'api-key': KEY,
        'base-url': server.url,
        ...FAST,
        prompt: 'More',
        'follow-up': 'true',
        comment: 'true'
      }
    })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(warningAnnotations(result)).toEqual([])
    const body = github.comments[0]?.body ?? ''
    expect(body.length).toBeLessThanOrEqual(65_536)
    expect(body).toContain('Mintlify agent job completed')
    expect(body).toContain('- Follow-up: `More`')
    expect(readMarker(body)?.omitted).toBeGreaterThan(0)
  })

  it('says a missing permission once, writes no more, and the summary says re-run protection is off', async () => {
    const github = await servers.github({ refuseWrites: 403 })
    const { server } = await servers.agentApi({
      projectId: PROJECT,
      apiKey: KEY,
      run: { activePolls: 1, final: { status: 'completed', prLink: PR } }
    })
    const result = await run(server, { prompt: 'Document /users', comment: 'true' }, onIssue(github))
    expect(result.exitCode, result.stdout).toBe(0)
    expect(github.calls.filter((call) => !call.startsWith('GET') && call !== 'POST /graphql')).toHaveLength(1)
    expect(warningAnnotations(result)).toHaveLength(1)
    expect(warningAnnotations(result)[0]).toContain('the token lacks permission')
    expect(result.summary).toContain('Re-run protection is off for this run')
  })
})

/** Resolves once `ready()` holds, checking every 10 ms. */
function until(ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (!ready()) return
      clearInterval(timer)
      resolve()
    }, 10)
  })
}
