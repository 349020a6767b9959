// The promises held when the service, GitHub and people do what their descriptions allow: an admin API that marks
// no field of a job as required, a job that is not readable at once, statuses nobody listed, secrets that happen to
// be short, people who edit and delete comments. The bundle run as the runner runs it, against loopback servers.
import { join } from 'node:path'
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { jobBody, sendJson } from '../../sim/admin-api.ts'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import {
  markerOf,
  promptHash,
  readMarker,
  type Submission as TrackedRequest,
  type TrackingState
} from '../../src/github/tracking-record.ts'
import { renderComment } from '../../src/report/comment-body.ts'
import { errorAnnotations, expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner, runAction, type RunOptions } from './support/run-bundle.ts'
import { once, onSlowClock, steppedClock } from './support/triggers.ts'

const KEY = 'mint_spec_allows_secret_key_0123'
const TOKEN = 'ghs_spec_allows_token_value_4567'
const PROJECT = 'docs'
const PR = 'https://github.com/acme/docs/pull/9'
const FAST = { 'poll-interval': '100ms', 'max-poll-interval': '200ms' }
const ISSUE_EVENT = { action: 'labeled', issue: { number: 12, title: 'Document /users' } }
const servers = loopback()

const run = bundleRunner({ githubToken: TOKEN, inputs: { 'project-id': PROJECT, 'api-key': KEY, ...FAST } })

const story = (jobId: string) => ({ projectId: PROJECT, jobId, apiKey: KEY, final: { status: 'completed' } })
const job = (res: ServerResponse, jobId: string, status: string, prLink: string | null = null) =>
  sendJson(res, 200, jobBody(story(jobId), status, prLink))

/** A create answered by `created`; each GET of the job answered by `polled` in turn (the last one repeats). */
function api(created: (res: ServerResponse) => void, ...polled: ((res: ServerResponse) => void)[]) {
  let polls = 0
  return servers.serve((req, res) => {
    if (req.method === 'POST') return created(res)
    const answer = polled[Math.min(polls++, polled.length - 1)]
    return answer?.(res)
  })
}

describe('the admin API', () => {
  it('keeps the id of a job created with an answer that has no status, waits for it, and tracks it as started', async () => {
    const server = await api(
      (res) => sendJson(res, 201, { id: 'job_9' }),
      (res) => job(res, 'job_9', 'active'),
      (res) => job(res, 'job_9', 'completed', PR)
    )
    const github = await servers.github()
    const result = await run(
      server,
      { prompt: 'Document it', comment: 'true' },
      {
        eventName: 'issues',
        event: ISSUE_EVENT,
        env: { GITHUB_API_URL: github.url }
      }
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ 'job-id': 'job_9', outcome: 'completed', prLink: PR })
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1)
    const state = readMarker(github.comments[0]?.body)
    expect(state?.job).toBe('job_9')
    expect(state?.requests.map((request) => request.unsure ?? false)).toEqual([false])
  })

  it.each([
    ['an empty object', {}],
    ["only the job's own id", { id: 'job-7' }]
  ])('takes a follow-up answered with %s as accepted, and waits for the job', async (_, body) => {
    const server = await api(
      (res) => sendJson(res, 200, body),
      (res) => job(res, 'job-7', 'active'),
      (res) => job(res, 'job-7', 'completed', PR)
    )
    const result = await run(server, { prompt: 'Also the errors', 'job-id': 'job-7' })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ 'job-id': 'job-7', outcome: 'completed', prLink: PR })
    expect(result.stdout).toContain('The follow-up was accepted by agent job "job-7".')
  })

  it('waits out the 404s of a job it has just created, then follows it', async () => {
    const notYet = (res: ServerResponse) => sendJson(res, 404, { error: 'Agent job not found' })
    const server = await api(
      (res) => sendJson(res, 201, { id: 'job_9', status: 'active' }),
      notYet,
      notYet,
      (res) => job(res, 'job_9', 'completed', PR)
    )
    const result = await run(server, { prompt: 'Document it' })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ 'job-id': 'job_9', outcome: 'completed' })
    expect(result.stdout).toContain(
      'Poll failed: HTTP 404: Agent job not found, as a job just started or followed up may answer for a moment'
    )
  })

  it('blames base-url, not the network, when every answer is a success without a job', async () => {
    // The first answer moves the step's clock past its timeout.
    const clock = steppedClock()
    const server = await servers.serve(clock.jumpingAt((_req, res) => sendJson(res, 200, { hello: 'world' })))
    const result = await run(server, { 'job-id': 'job-1', ...clock.inputs }, clock.with())
    expect(result.exitCode).toBe(1)
    const [error] = errorAnnotations(result)
    expect(error).toContain("held no agent job: check that base-url is the Mintlify admin API's root")
    expect(error).not.toContain('reachable')
  })

  it("names the runner's DNS, not base-url, when the default base-url does not resolve", async () => {
    const result = await run(
      undefined,
      { 'job-id': 'job-1', timeout: '5s', 'poll-interval': '1s', 'max-poll-interval': '1s' },
      {
        nodeArgs: ['--import', join(import.meta.dirname, '..', 'fixtures', 'unresolvable-api-host.mjs')]
      }
    )
    expect(result.exitCode).toBe(1)
    const [error] = errorAnnotations(result)
    expect(error).toContain("The runner could not resolve api.mintlify.com, the admin API's host")
    expect(error).toContain("Check the runner's DNS and network")
    expect(error).not.toContain('Check base-url')
  })

  it('keeps polling through a status it does not know, warns once, and takes the end when it comes', async () => {
    const server = await servers.serve((_req, res, index) => job(res, 'job-1', index < 3 ? 'queued' : 'completed'))
    const result = await run(server, { 'job-id': 'job-1' })
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(4)
    expect(result.outputs).toMatchObject({ outcome: 'completed', status: 'completed' })
    expect(warningAnnotations(result)).toEqual([
      'The API reported the status "queued", which this action does not know: it keeps polling until the job is completed, archived or failed.'
    ])
  })

  it('names a status it does not know when the timeout ends', async () => {
    const clock = steppedClock()
    const server = await servers.serve(clock.jumpingAt((_req, res) => job(res, 'job-1', 'queued')))
    const result = await run(server, { 'job-id': 'job-1', ...clock.inputs, 'fail-on': 'failed' }, clock.with())
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'timeout' })
    expect(warningAnnotations(result)).toHaveLength(1)
    expect(result.stdout).toContain('The API reported a status this action does not know ("queued")')
  })

  it("shows an error body's details after its error, redacted and on one line", async () => {
    const server = await servers.serve((_req, res) =>
      sendJson(res, 422, { error: 'Invalid request', details: { prompt: 'is\nrequired', echo: KEY } })
    )
    const result = await run(server, { prompt: 'Document it' })
    expect(result.exitCode).toBe(1)
    expect(errorAnnotations(result)[0]).toContain(
      'The API refused to start the agent job (HTTP 422: Invalid request (details: {"prompt":"is\\nrequired","echo":"***"})).'
    )
    expectKeyNeverShown(result, KEY)
  })
})

describe('secrets that are short', () => {
  it.each(['x', 'comp'])('a github-token of %j breaks neither the job nor its status', async (token) => {
    const server = await servers.serve((_req, res) => job(res, 'job-1', 'completed', PR))
    const result = await run(server, { 'job-id': 'job-1', 'github-token': token })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ status: 'completed', outcome: 'completed', prLink: PR })
    expect(JSON.parse(result.outputs['job'] ?? '{}')).toMatchObject({ id: 'job-1', status: 'completed', prLink: PR })
  })
})

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
const onIssue = (github: { url: string }, env: Record<string, string> = {}): Partial<RunOptions> => ({
  eventName: 'issues',
  event: ISSUE_EVENT,
  env: { GITHUB_API_URL: github.url, ...env }
})
const BOT = 'github-actions[bot]'
/** A job that stays active until the test says otherwise. */
const running = (jobId: string) => ({ jobId, activePolls: Infinity, final: { status: 'completed', prLink: PR } })

describe('the tracking comment', () => {
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

describe('never a job twice', () => {
  it('records a start on the issue before sending it, so a runner killed after the create still leaves the attempt for a re-run', async () => {
    const github = await servers.github()
    const { api, server } = await servers.agentApi({ projectId: PROJECT, apiKey: KEY, run: running('') })
    let created = false
    const inputs = { prompt: 'Document /users', comment: 'true' }
    const first = await run(server, inputs, {
      ...onIssue(github, { GITHUB_RUN_ATTEMPT: '1' }),
      onSpawn: (child) => {
        once(
          () => (created ||= api.posts.length > 0),
          () => child.kill('SIGKILL')
        )
      }
    })
    expect(first.signal).toBe('SIGKILL')
    const rerun = await run(server, inputs, onIssue(github, { GITHUB_RUN_ATTEMPT: '2' }))
    expect(api.posts).toHaveLength(1)
    expect(rerun.exitCode).toBe(1)
    expect(errorAnnotations(rerun)[0]).toMatch(
      /An earlier attempt of this run (tried to start an agent job|sent this prompt to agent job "job-1")/
    )
  })

  it('tells two steps of one run that send the same prompt apart: a re-run of each finds its own job', async () => {
    const github = await servers.github()
    // Each read of a job moves the step's clock past its timeout.
    const clock = steppedClock()
    const api = simulateAgentApi({ projectId: PROJECT, apiKey: KEY, run: running('') })
    const server = await servers.serve(clock.jumpingAt(api.respond, (req) => req.method === 'GET'))
    const inputs = { prompt: 'Document /users', comment: 'true', ...clock.inputs, 'fail-on': '' }
    const step = (action: string, attempt: string) =>
      clock.with(onIssue(github, { GITHUB_JOB: 'docs', GITHUB_ACTION: action, GITHUB_RUN_ATTEMPT: attempt }))
    expect((await run(server, inputs, step('first', '1'))).outputs['job-id']).toBe('job-1')
    expect((await run(server, inputs, step('second', '1'))).outputs['job-id']).toBe('job-2')
    const rerun = await run(server, inputs, step('first', '2'))
    expect(rerun.outputs['job-id']).toBe('job-1')
    expect(api.posts).toHaveLength(2)
  })
})

describe('small things a new user hit', () => {
  it('notes that a bare timeout under a minute is read as seconds', async () => {
    const server = await servers.serve((_req, res) => job(res, 'job-1', 'completed'))
    const result = await run(server, { 'job-id': 'job-1', timeout: '30' })
    expect(result.stdout).toContain('::notice::Input "timeout" is 30, read as 30 seconds; write 30m for minutes.')
  })

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
