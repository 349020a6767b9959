// The agent API in one step: the bundled dist/ starts a job from a prompt (or sends a follow-up), waits for it and
// keeps the issue told, against a simulated admin API and a simulated GitHub on loopback. A request that changes
// something is never sent twice when it may have reached the API.
import { readFile } from 'node:fs/promises'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { jobBody, type RunningServer, sendJson, startServer } from '../../sim/admin-api.ts'
import { type AgentApi, type AgentApiOptions, simulateAgentApi } from '../../sim/agent-api.ts'
import type { FakeGitHub } from '../../sim/github-api.ts'
import { loopback } from './support/loopback.ts'
import { readActionMetadata } from '../../sim/run-action.ts'
import { bundleRunner, type RunOptions } from './support/run-bundle.ts'
import { once, type SteppedClock, steppedClock, whenLogged } from './support/triggers.ts'
import { errorAnnotations, expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'

const KEY = 'mint_agent_step_secret_key'
const TOKEN = 'ghs_agent_step_token_value'
const PROJECT = 'docs-project'
const PR = 'https://github.com/acme/docs/pull/128'
const FAST = { 'poll-interval': '100ms', 'max-poll-interval': '300ms' }
const ISSUE_EVENT = {
  action: 'labeled',
  issue: { number: 12, title: 'Document /users' },
  label: { name: 'docs-agent' }
}
const HOSTILE_PROMPT = 'Document "quotes", $(rm -rf ~) and `backticks`\n::error::not a command\nÜnïcödé ✓ 100%'

const servers = loopback()
const { serve } = servers

/** The simulated admin API; on `clock`, each read of a job moves the step's clock past its timeout. */
async function agentApi(
  options: Partial<AgentApiOptions> = {},
  clock?: SteppedClock
): Promise<{ api: AgentApi; server: RunningServer }> {
  const api = simulateAgentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 2, final: { status: 'completed', prLink: PR } },
    ...options
  })
  const server = await serve(clock ? clock.jumpingAt(api.respond, (req) => req.method === 'GET') : api.respond)
  return { api, server }
}

const run = bundleRunner({ githubToken: TOKEN, inputs: { 'project-id': PROJECT, 'api-key': KEY, ...FAST } })

function withGitHub(github: FakeGitHub, env: Record<string, string> = {}): Partial<RunOptions> {
  return { eventName: 'issues', event: ISSUE_EVENT, env: { GITHUB_API_URL: github.url, ...env } }
}

const posts = (server: RunningServer) => server.requests.filter((request) => request.method === 'POST')
const readBody = async (req: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

describe('a prompt starts a job', () => {
  it('sends the prompt exactly as given, once, then waits and hands on the pull request', async () => {
    const { api, server } = await agentApi()
    const result = await run(server, { prompt: HOSTILE_PROMPT })
    expect(result.exitCode).toBe(0)
    expect(api.posts).toEqual([{ what: 'create', prompt: HOSTILE_PROMPT }])
    expect(posts(server)[0]?.headers['content-type']).toBe('application/json')
    expect(result.outputs).toMatchObject({
      'job-id': 'job-1',
      status: 'completed',
      outcome: 'completed',
      prLink: PR,
      'pr-number': '128'
    })
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      `POST /v2/agent/${PROJECT}/job`,
      `GET /v2/agent/${PROJECT}/job/job-1`,
      `GET /v2/agent/${PROJECT}/job/job-1`,
      `GET /v2/agent/${PROJECT}/job/job-1`
    ])
    expectKeyNeverShown(result, KEY)
  })

  it('shows only the first line of the prompt in the log, harmless, and escapes it in the summary', async () => {
    const { server } = await agentApi()
    const result = await run(server, { prompt: '::error::forged\nsecond line' })
    const lines = result.stdout.split('\n')
    expect(lines.filter((line) => line.startsWith('::error::'))).toEqual([])
    expect(result.stdout).toContain(
      'Starting an agent job in project "docs-project" with the prompt: ::error::forged\n'
    )
    expect(result.stdout).not.toContain('second line')
    expect(result.summary).toContain('<tr><th>Prompt</th><td>::error::forged</td></tr>')
  })

  it('with wait: false, ends once the job is started: outcome started, status active, and fail-on does not apply', async () => {
    const { server } = await agentApi()
    const result = await run(server, {
      prompt: 'Document it',
      wait: 'false',
      'fail-on': 'completed,failed,timeout,archived'
    })
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ 'job-id': 'job-1', status: 'active', outcome: 'started', prLink: '' })
    expect(server.requests.map((request) => request.method)).toEqual(['POST'])
    expect(result.summary).toContain('🚀 Mintlify agent job started')
  })

  it("stops at once with the API's own message on a 4xx, and sends nothing again", async () => {
    const server = await serve((_req, res) => sendJson(res, 400, { error: 'prompt is longer than 10000 characters' }))
    const result = await run(server, { prompt: 'x' })
    expect(result.exitCode).toBe(1)
    expect(posts(server)).toHaveLength(1)
    expect(result.outputs).toMatchObject({ outcome: 'error', 'job-id': '', status: '' })
    expect(errorAnnotations(result)[0]).toBe(
      'The API refused to start the agent job (HTTP 400: prompt is longer than 10000 characters). Nothing was started.'
    )
  })

  // The key refused (401), and every other refusal's wording: rows of test/unit/admin-api/job-answers.test.ts.
})

describe('never a job twice', () => {
  // A fault of each layer (HTTP, socket, deadline, the answer's shape); every answer's class is a row of
  // test/unit/admin-api/job-answers.test.ts, an id with a line break among them.
  it.each([
    [
      'a 500',
      (_req: IncomingMessage, res: ServerResponse) => sendJson(res, 500, { error: 'Internal error' }),
      'HTTP 500: Internal error'
    ],
    [
      'a connection reset after the request arrived',
      async (req: IncomingMessage, res: ServerResponse) => {
        await readBody(req)
        res.socket?.resetAndDestroy()
      },
      'connection reset or closed mid-response'
    ],
    ['no answer within request-timeout', () => undefined, 'no complete answer within 3000ms (request-timeout)'],
    [
      'a 201 whose id would move the request path',
      (_req: IncomingMessage, res: ServerResponse) => sendJson(res, 201, { id: '..', status: 'active' }),
      'HTTP 201 with a body that is not a job: "id" must be an id, not ".."'
    ]
  ])('sends the prompt exactly once after %s, and says where to look', async (_, respond, reason) => {
    const server = await serve(respond)
    // A request-timeout that a loaded machine's first request fits in: only the case that never answers waits it out.
    const result = await run(server, { prompt: 'Document it', 'request-timeout': '3s' })
    expect(result.exitCode).toBe(1)
    await server.allClosed()
    expect(
      server.requests.map((request) => request.method),
      result.stdout
    ).toEqual(['POST'])
    expect(result.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    const [error] = errorAnnotations(result)
    expect(error).toContain(`Starting the agent job may or may not have worked: ${reason}`)
    expect(error).toContain(
      'It is not sent again, so that nothing runs twice: look for a new agent job in project "docs-project" on the Mintlify dashboard'
    )
    expect(result.summary).toContain('<tr><th>Prompt</th><td>Document it</td></tr>')
  })

  it('sends it again after a 429, no sooner than Retry-After, and names the rate limit', async () => {
    const api = simulateAgentApi({
      projectId: PROJECT,
      apiKey: KEY,
      run: { activePolls: 1, final: { status: 'completed', prLink: PR } }
    })
    const gate = await serve((req, res, index) => {
      if (index === 0) return sendJson(res, 429, { error: 'Rate limit exceeded' }, { 'retry-after': '1' })
      return api.respond(req, res, index)
    })
    const result = await run(gate, { prompt: 'Document it' })
    expect(result.exitCode).toBe(0)
    const [first, second] = posts(gate)
    expect(posts(gate)).toHaveLength(2)
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1000)
    expect(result.stdout).toContain(
      'Could not start the agent job: rate limited (HTTP 429: Rate limit exceeded). Mintlify allows 100 agent job starts and follow-ups an hour per project. The API surely did not act on it, so it is sent again in 1s.'
    )
    expect(result.outputs['job-id']).toBe('job-1')
  })

  // A 429 that asks for no wait is backed off from all the same: test/unit/decide/send.test.ts.
  it('a quota that resets past the timeout ends rate-limited: green, with a warning that says when it resets', async () => {
    const { server } = await agentApi({ rateLimit: { max: 0, windowMs: 3_600_000, retryAfterS: 3600 } })
    const result = await run(server, { prompt: 'Document it', timeout: '1m' })
    expect(result.exitCode).toBe(0)
    expect(posts(server)).toHaveLength(1)
    expect(result.outputs).toMatchObject({ outcome: 'rate-limited', 'job-id': '', 'action-taken': 'none' })
    expect(errorAnnotations(result)).toEqual([])
    const [warning] = warningAnnotations(result)
    expect(warning).toContain(
      'Could not start the agent job: rate limited (HTTP 429: Rate limit exceeded); it asked to wait 1h (Retry-After), past the timeout (1 attempt). Mintlify allows 100 agent job starts and follow-ups an hour per project.'
    )
    expect(warning).toMatch(/The quota resets at \d\d:\d\d UTC\. The docs were not updated: nothing was started\./)
    expect(result.summary).toContain('quota reached')
  })

  it('sends it again while the connection is refused, then once it is accepted', async () => {
    const port = String(await portBelowEphemeral())
    const api = simulateAgentApi({
      projectId: PROJECT,
      apiKey: KEY,
      run: { activePolls: 0, final: { status: 'completed', prLink: PR } }
    })
    let late: RunningServer | undefined
    const result = await run(
      { url: `http://127.0.0.1:${port}` },
      { prompt: 'Document it' },
      {
        onSpawn: (child) => {
          void whenLogged(child, 'Could not start the agent job: connection refused')
            .then(() => startServer(api.respond, { port: Number(port) }))
            .then((server) => {
              late = server
              servers.track(server)
            })
        }
      }
    )
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain(
      'Could not start the agent job: connection refused (ECONNREFUSED). The API surely did not act on it'
    )
    expect(api.posts).toHaveLength(1)
    expect(late?.requests.filter((request) => request.method === 'POST')).toHaveLength(1)
  })

  it('keeps job-id in the outputs when the run is cancelled in the middle of the wait', async () => {
    const { server } = await agentApi({ run: { activePolls: Infinity, final: { status: 'completed' } } })
    const result = await run(
      server,
      { prompt: 'Document it' },
      {
        onSpawn: (child) => {
          once(
            () => server.requests.some((request) => request.method === 'GET'),
            () => child.kill('SIGTERM')
          )
        }
      }
    )
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ 'job-id': 'job-1', outcome: 'cancelled', status: 'active' })
    expect(posts(server)).toHaveLength(1)
  })
})

describe('follow-ups', () => {
  it('with job-id, sends the prompt to that job and waits for it again', async () => {
    const { api, server } = await agentApi({
      existing: [{ jobId: 'job-7', activePolls: 0, final: { status: 'completed', prLink: PR } }]
    })
    const result = await run(server, { prompt: 'Also document /teams', 'job-id': 'job-7' })
    expect(result.exitCode).toBe(0)
    expect(api.posts).toEqual([{ what: 'follow-up job-7', prompt: 'Also document /teams' }])
    expect(server.requests[0]?.url).toBe(`/v2/agent/${PROJECT}/job/job-7/message`)
    expect(result.outputs).toMatchObject({ 'job-id': 'job-7', outcome: 'completed', prLink: PR })
    expect(result.summary).toContain('<tr><th>Follow-up</th><td>Also document /teams</td></tr>')
  })

  it("does not take the finished status the job showed before the follow-up for the follow-up's end", async () => {
    const { server } = await agentApi({
      existing: [{ jobId: 'job-7', activePolls: 0, final: { status: 'completed', prLink: PR } }],
      followUpLag: { polls: 2 }
    })
    const result = await run(server, { prompt: 'Also document /teams', 'job-id': 'job-7' })
    expect(result.exitCode).toBe(0)
    // The answer and two polls still show the earlier "completed"; then the job is active for two polls, then ends.
    expect(server.requests.filter((request) => request.method === 'GET')).toHaveLength(5)
    expect(result.stdout).toMatch(/Job status: active \(was completed, after [\dhms ]+\)/)
  })

  it("stops with the API's reason when the job does not exist", async () => {
    const { server } = await agentApi()
    const result = await run(server, { prompt: 'Also this', 'job-id': 'job-404' })
    expect(result.exitCode).toBe(1)
    expect(posts(server)).toHaveLength(1)
    expect(errorAnnotations(result)[0]).toContain(
      'Could not send the follow-up to agent job "job-404": no agent job "job-404" was found in project "docs-project" (HTTP 404: Agent job not found'
    )
  })
})

describe('the tracking comment', () => {
  /** A tracking comment exactly as version 1.1.0 wrote it: job-1, started by run 4242 with this prompt. */
  const written110 = () => readFile(join(import.meta.dirname, '..', 'fixtures', 'tracking-comment-1.1.0.md'), 'utf8')

  it('follows up the job of a comment written by 1.1.0, and edits that comment', async () => {
    const github = await servers.github({
      existing: [{ issue: 12, body: await written110(), user: 'github-actions[bot]' }]
    })
    const { api, server } = await agentApi({
      existing: [{ jobId: 'job-1', activePolls: 0, final: { status: 'completed' } }]
    })
    const result = await run(
      server,
      { prompt: 'Also the errors', 'follow-up': 'true', comment: 'true' },
      withGitHub(github)
    )
    expect(result.exitCode).toBe(0)
    expect(api.posts).toEqual([{ what: 'follow-up job-1', prompt: 'Also the errors' }])
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain('- Follow-up: `Also the errors`')
  })

  it('lets a re-run of a run that 1.1.0 started wait for its job, sending nothing', async () => {
    const github = await servers.github({
      existing: [{ issue: 12, body: await written110(), user: 'github-actions[bot]' }]
    })
    const { api, server } = await agentApi({
      existing: [{ jobId: 'job-1', activePolls: 2, final: { status: 'completed', prLink: PR } }]
    })
    const inputs = { prompt: 'Document the /users endpoint', comment: 'true' }
    const rerun = await run(server, inputs, withGitHub(github, { GITHUB_RUN_ATTEMPT: '2' }))
    expect(rerun.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1', prLink: PR })
    expect(api.posts).toEqual([])
    expect(github.comments).toHaveLength(1)
  })

  it('is visible while the job is active, and afterwards the same comment carries the pull request', async () => {
    const github = await servers.github()
    const final = { status: 'completed', prLink: PR }
    // Active for a hundred polls at most; the poll after the one that finds the comment showing it running, it ends.
    const api = simulateAgentApi({ projectId: PROJECT, apiKey: KEY, run: { activePolls: 100, final } })
    const running = (body: string) => body.includes('⏳ **Mintlify agent job running**: the agent is working on it.')
    const seenWhileActive: string[] = []
    const server = await serve((req, res, index) => {
      const job = api.jobs.get('job-1')
      if (req.method === 'GET' && job) {
        const bodies = github.comments.map((comment) => comment.body)
        seenWhileActive.push(...bodies)
        if (bodies.some(running) && job.run.activePolls === 100) job.run = { activePolls: job.polls + 1, final }
      }
      return api.respond(req, res, index)
    })
    const result = await run(
      server,
      { prompt: 'Document the /users endpoint\nwith examples', comment: 'true' },
      withGitHub(github)
    )
    expect(result.exitCode).toBe(0)
    expect(github.comments).toHaveLength(1)
    const [comment] = github.comments
    expect(seenWhileActive.some(running)).toBe(true)
    expect(seenWhileActive.at(-1)).toContain('- Prompt: `Document the /users endpoint`')
    expect(seenWhileActive.at(-1)).toContain('job `job-1`')
    expect(comment?.body).toContain(
      `✅ **Mintlify agent job completed**: the agent opened a pull request: <a href="${PR}">`
    )
    expect(comment?.body).toContain('- Prompt: `Document the /users endpoint`')
    expect(comment?.body).toContain('<a href="https://github.com/acme/docs/actions/runs/4242">workflow run</a>')
    expect(result.outputs['comment-url']).toBe(
      `https://github.com/acme/docs/issues/12#issuecomment-${comment?.id ?? ''}`
    )
    expectKeyNeverShown(result, TOKEN)
  })

  it('a follow-up on the issue goes to the job already there, and the same comment lists it', async () => {
    const github = await servers.github()
    const { api, server } = await agentApi()
    const first = await run(server, { prompt: 'Document /users', comment: 'true' }, withGitHub(github))
    expect(first.outputs['job-id']).toBe('job-1')
    const comment = {
      action: 'created',
      issue: { number: 12 },
      comment: { body: '/docs also document /teams', author_association: 'MEMBER' }
    }
    const second = await run(
      server,
      { prompt: '/docs also document /teams', 'follow-up': 'true', comment: 'true' },
      { eventName: 'issue_comment', event: comment, env: { GITHUB_API_URL: github.url, GITHUB_RUN_ID: '4343' } }
    )
    expect(second.exitCode).toBe(0)
    expect(api.posts).toEqual([
      { what: 'create', prompt: 'Document /users' },
      { what: 'follow-up job-1', prompt: '/docs also document /teams' }
    ])
    expect(second.outputs['job-id']).toBe('job-1')
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain('- Prompt: `Document /users`\n- Follow-up: `/docs also document /teams`')
    expect(second.stdout).toContain('Sending a follow-up to agent job "job-1" in project "docs-project"')
  })

  it('a follow-up on an issue without a tracked job starts a new one', async () => {
    const github = await servers.github()
    const { api, server } = await agentApi()
    const result = await run(server, { prompt: 'Document /users', 'follow-up': 'true' }, withGitHub(github))
    expect(result.exitCode).toBe(0)
    expect(api.posts).toEqual([{ what: 'create', prompt: 'Document /users' }])
    expect(result.stdout).toContain('No agent job is tracked on issue #12 yet: starting a new one.')
    expect(github.comments).toHaveLength(0)
  })

  it('a follow-up that cannot read the issue sends nothing', async () => {
    const github = await servers.github({ failFirst: [401, 401, 401, 401] })
    const { api, server } = await agentApi()
    const result = await run(server, { prompt: 'Document /users', 'follow-up': 'true' }, withGitHub(github))
    expect(result.exitCode).toBe(1)
    expect(api.posts).toEqual([])
    expect(errorAnnotations(result)[0]).toContain(
      'Could not look for the job to follow up: Could not read the comments of issue #12 in acme/docs'
    )
  })

  it('a cancel while GitHub is being retried ends the step at once, with its outputs and summary', async () => {
    const github = await servers.github({ failFirst: Array.from({ length: 20 }, () => 502) })
    const { api, server } = await agentApi()
    const result = await run(
      server,
      { prompt: 'Document /users', 'follow-up': 'true' },
      {
        ...withGitHub(github),
        onSpawn: (child) => {
          once(
            () => github.calls.length >= 2,
            () => child.kill('SIGTERM')
          )
        }
      }
    )
    // Octokit's wait before its next retry outlasts the runner's patience (7.5 s): the outputs must not wait for it,
    // and the step ends itself within its grace (cancelGraceMs, test/unit/wait/retry.test.ts) instead.
    expect(result.signal).toBeNull()
    expect(result.outputs).toMatchObject({ outcome: 'cancelled', 'job-id': '' })
    expect(result.summary).toContain('Run cancelled')
    expect(api.posts).toEqual([])
  })

  it('a re-run attempt finds the job the earlier attempt started, sends no POST, and waits for it', async () => {
    const github = await servers.github()
    const clock = steppedClock()
    const { api, server } = await agentApi(
      { run: { activePolls: Infinity, final: { status: 'completed', prLink: PR } } },
      clock
    )
    const inputs = { prompt: 'Document /users', comment: 'true' }
    const first = await run(
      server,
      { ...inputs, ...clock.inputs, 'fail-on': 'failed' },
      clock.with(withGitHub(github, { GITHUB_RUN_ATTEMPT: '1' }))
    )
    expect(first.outputs).toMatchObject({ outcome: 'timeout', 'job-id': 'job-1' })
    // From here the job answers active once more (to the re-run's check), then completed.
    const job = api.jobs.get('job-1')
    if (job) Object.assign(job, { run: { activePolls: 1, final: { status: 'completed', prLink: PR } }, polls: 0 })
    const rerun = await run(server, inputs, withGitHub(github, { GITHUB_RUN_ATTEMPT: '2' }))
    expect(rerun.exitCode).toBe(0)
    expect(api.posts).toHaveLength(1)
    expect(rerun.outputs).toMatchObject({ 'job-id': 'job-1', outcome: 'completed', prLink: PR })
    expect(rerun.stdout).toContain(
      'An earlier attempt of this run already sent this prompt to agent job "job-1", which is still running: waiting for it instead of sending the prompt again.'
    )
    expect(github.comments).toHaveLength(1)
  })

  it('a re-run attempt whose earlier job already ended sends the prompt again, and says so', async () => {
    const github = await servers.github()
    const { api, server } = await agentApi({ run: { activePolls: 0, final: { status: 'failed' } } })
    const inputs = { prompt: 'Document /users', comment: 'true' }
    await run(server, inputs, withGitHub(github, { GITHUB_RUN_ATTEMPT: '1' }))
    const rerun = await run(server, inputs, withGitHub(github, { GITHUB_RUN_ATTEMPT: '2' }))
    expect(api.posts).toHaveLength(2)
    expect(rerun.outputs['job-id']).toBe('job-2')
    expect(rerun.stdout).toContain('which is failed: this attempt sends it again.')
    expect(github.comments).toHaveLength(2)
  })

  it('a start that may or may not have worked is recorded on the issue, and a re-run sends nothing', async () => {
    const github = await servers.github()
    const server = await serve((_req, res) => sendJson(res, 502, { error: 'Bad gateway' }))
    const inputs = { prompt: 'Document /users', comment: 'true' }
    const first = await run(server, inputs, withGitHub(github, { GITHUB_RUN_ATTEMPT: '1' }))
    expect(first.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain('Starting the agent job may or may not have worked')
    expect(github.comments[0]?.body).toContain('job unknown')

    const rerun = await run(server, inputs, withGitHub(github, { GITHUB_RUN_ATTEMPT: '2' }))
    expect(rerun.exitCode).toBe(1)
    expect(posts(server)).toHaveLength(1)
    expect(rerun.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    expect(errorAnnotations(rerun)[0]).toContain(
      'An earlier attempt of this run tried to start an agent job with this prompt, and could not tell whether it did. Nothing was sent'
    )
    expect(errorAnnotations(rerun)[0]).toContain('start a new run of the workflow instead of re-running this one')
    expect(github.comments).toHaveLength(1)
  })

  it('a re-run with job-id and a prompt does not send the follow-up again while the job works on it', async () => {
    const github = await servers.github()
    const clock = steppedClock()
    const { api, server } = await agentApi(
      {
        existing: [{ jobId: 'job-7', activePolls: 0, final: { status: 'completed', prLink: PR } }],
        run: { activePolls: Infinity, final: { status: 'completed', prLink: PR } }
      },
      clock
    )
    const inputs = {
      prompt: 'Also document /teams',
      'job-id': 'job-7',
      comment: 'true',
      ...clock.inputs,
      'fail-on': 'failed'
    }
    const first = await run(server, inputs, clock.with(withGitHub(github, { GITHUB_RUN_ATTEMPT: '1' })))
    expect(first.outputs).toMatchObject({ outcome: 'timeout', 'job-id': 'job-7' })
    const rerun = await run(server, inputs, clock.with(withGitHub(github, { GITHUB_RUN_ATTEMPT: '2' })))
    expect(rerun.outputs).toMatchObject({ outcome: 'timeout', 'job-id': 'job-7' })
    expect(api.posts).toEqual([{ what: 'follow-up job-7', prompt: 'Also document /teams' }])
    expect(rerun.stdout).toContain(
      'An earlier attempt of this run already sent this prompt to agent job "job-7", which is still running: waiting for it'
    )
    expect(github.comments).toHaveLength(1)
  })

  it('a re-run does not send again a follow-up that may or may not have arrived, even once the job has ended', async () => {
    const github = await servers.github()
    const { api } = await agentApi({
      existing: [{ jobId: 'job-7', activePolls: 0, final: { status: 'completed', prLink: PR } }]
    })
    let followUps = 0
    const server = await serve((req, res, index) => {
      if (req.method === 'POST' && followUps++ === 0) return sendJson(res, 500, { error: 'Internal error' })
      return api.respond(req, res, index)
    })
    const inputs = { prompt: 'Also document /teams', 'job-id': 'job-7', comment: 'true' }
    const first = await run(server, inputs, withGitHub(github, { GITHUB_RUN_ATTEMPT: '1' }))
    expect(first.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain('job `job-7`')
    const rerun = await run(server, inputs, withGitHub(github, { GITHUB_RUN_ATTEMPT: '2' }))
    expect(rerun.exitCode).toBe(1)
    expect(followUps).toBe(1)
    expect(errorAnnotations(rerun)[0]).toContain(
      'An earlier attempt of this run sent this prompt to agent job "job-7", which is now completed, and could not tell whether it arrived. Nothing was sent'
    )
  })

  // Which earlier attempt a re-run goes by (the run's latest, across comments, of this step and this project alone)
  // is a row of test/unit/decide/rerun.test.ts.
  it('a re-run soon after a follow-up that has not shown yet waits for it, and does not send it again', async () => {
    const github = await servers.github()
    // Each read of the job moves the step's clock 15 s, past the timeout: the first attempt times out well within the
    // minute a follow-up has to show, with the job's earlier status (completed) still showing.
    const clock = steppedClock('15s')
    const { api, server } = await agentApi(
      {
        existing: [{ jobId: 'job-7', activePolls: 0, final: { status: 'completed', prLink: PR } }],
        followUpLag: { polls: 1000 }
      },
      clock
    )
    const inputs = {
      prompt: 'Also document /teams',
      'job-id': 'job-7',
      comment: 'true',
      ...clock.inputs,
      'fail-on': ''
    }
    await run(server, inputs, clock.with(withGitHub(github, { GITHUB_RUN_ATTEMPT: '1' })))
    const rerun = await run(server, inputs, clock.with(withGitHub(github, { GITHUB_RUN_ATTEMPT: '2' })))
    expect(api.posts).toHaveLength(1)
    expect(rerun.stdout).toMatch(
      /An earlier attempt of this run sent this prompt to agent job "job-7" [\dhms ]+ ago, and the job still shows completed: waiting for it/
    )
  })

  it('a cancel just after the job started still leaves the comment, and a re-run waits for that job', async () => {
    const github = await servers.github({ latencyMs: 100 })
    const clock = steppedClock()
    const { api, server } = await agentApi({ run: { activePolls: Infinity, final: { status: 'completed' } } }, clock)
    const inputs = { prompt: 'Document /users', comment: 'true' }
    const first = await run(server, inputs, {
      ...withGitHub(github, { GITHUB_RUN_ATTEMPT: '1' }),
      // The moment the action has read the new job's id, before its comment says so.
      onSpawn: (child) => void whenLogged(child, 'Started agent job').then(() => child.kill('SIGINT'))
    })
    expect(first.outputs).toMatchObject({ outcome: 'cancelled', 'job-id': 'job-1' })
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain('this workflow run was cancelled, and the Mintlify agent job may still')
    const rerun = await run(
      server,
      { ...inputs, ...clock.inputs, 'fail-on': '' },
      clock.with(withGitHub(github, { GITHUB_RUN_ATTEMPT: '2' }))
    )
    expect(rerun.outputs['job-id']).toBe('job-1')
    expect(api.posts).toHaveLength(1)
  })

  it('with wait: false, posts the comment saying the job started, before the step ends', async () => {
    const github = await servers.github()
    const { server } = await agentApi()
    const result = await run(server, { prompt: 'Document /users', comment: 'true', wait: 'false' }, withGitHub(github))
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'started', 'job-id': 'job-1' })
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain(
      '🚀 **Mintlify agent job started**: the agent is working on it; this run does not wait for it'
    )
    expect(result.outputs['comment-url']).toContain(`#issuecomment-${github.comments[0]?.id ?? ''}`)
  })

  it('a cancelled run edits the comment: cancelled, and the job may still be running', async () => {
    const github = await servers.github()
    const { server } = await agentApi({ run: { activePolls: Infinity, final: { status: 'completed' } } })
    const result = await run(
      server,
      { prompt: 'Document /users', comment: 'true' },
      {
        ...withGitHub(github),
        onSpawn: (child) => {
          // Once the comment says the job is running: the job is known, and the wait has begun.
          once(
            () => github.comments[0]?.body.includes('Mintlify agent job running') ?? false,
            () => child.kill('SIGINT')
          )
        }
      }
    )
    expect(result.exitCode).toBe(1)
    expect(result.signal).toBeNull()
    expect(result.outputs).toMatchObject({ outcome: 'cancelled', 'job-id': 'job-1' })
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain(
      '⏹️ **Run cancelled**: this workflow run was cancelled, and the Mintlify agent job may still be running.'
    )
  })

  it.each([
    ['a SIGTERM alone', ['SIGTERM']],
    ['a SIGTERM right after a SIGINT', ['SIGINT', 'SIGTERM']]
  ] as const)(
    "after %s, with GitHub's edit of the comment hanging, ends on its own with every output and the summary",
    async (_, signals) => {
      // The comment's edits are never answered: GitHub hangs, and no request deadline would end the step. Only its
      // schedule after a SIGTERM does, and the unit tests prove on a simulated clock that it ends within a second,
      // before the runner's SIGKILL 2.5 s later. The test sends no SIGKILL of its own: a busy machine would decide it.
      const github = await servers.github({ intercept: (call) => call.startsWith('PATCH ') })
      const { server } = await agentApi({ run: { activeForMs: 600_000, final: { status: 'completed' } } })
      const result = await run(
        server,
        { prompt: 'Document /users', comment: 'true', 'request-timeout': '1h' },
        {
          ...withGitHub(github),
          onSpawn: (child) => {
            once(
              () => github.calls.some((call) => call.startsWith('PATCH ')) && server.requests.length > 1,
              () => {
                for (const signal of signals) child.kill(signal)
              }
            )
          }
        }
      )
      expect(result.signal, result.stdout).toBeNull()
      expect(result.exitCode).toBe(1)
      const { outputs } = await readActionMetadata()
      expect(Object.keys(result.outputs).sort()).toEqual(Object.keys(outputs).sort())
      expect(result.outputs).toMatchObject({ outcome: 'cancelled', 'job-id': 'job-1', status: 'active' })
      expect(result.summary).toContain('⏹️ Run cancelled')
      expect(errorAnnotations(result)[0]).toContain('Cancelled while waiting for agent job "job-1"')
    }
  )

  it.each([
    ['a start', 'POST', {}],
    ['a follow-up, whose comment is looked for on the issue first', 'GET', { 'job-id': 'job-9' }]
  ])(
    'a run cancelled while GitHub is slow to record %s ends at once, with its outputs and summary, sending nothing',
    async (_, method, inputs) => {
      const github = await servers.github({
        // GitHub takes 20 s over the write that records the request, or the search before it.
        intercept: (call, _req, res) => {
          if (!call.startsWith(`${method} /repos/`)) return false
          setTimeout(() => sendJson(res, 502, { message: 'slow' }), 20_000).unref()
          return true
        }
      })
      const existing = [{ jobId: 'job-9', activePolls: 0, final: { status: 'completed' } }]
      const { api, server } = await agentApi({ existing })
      const result = await run(
        server,
        { prompt: 'Document /users', comment: 'true', ...inputs },
        {
          ...withGitHub(github),
          onSpawn: (child) => {
            once(
              () => github.calls.some((call) => call.startsWith(`${method} /repos/`)),
              () => child.kill('SIGINT')
            )
          }
        }
      )
      expect(result.exitCode).toBe(1)
      expect(result.outputs).toMatchObject({ outcome: 'cancelled' })
      expect(result.summary).toContain('Run cancelled')
      expect(api.posts).toEqual([])
    }
  )

  // One as the bundle meets it; the issue or pull request of every event is a row of test/unit/github/thread.test.ts.
  it.each([['pull_request_target', { action: 'opened', number: 34, pull_request: { number: 34 } }, 34]])(
    'works on %s events',
    async (eventName, event, number) => {
      const github = await servers.github()
      const { server } = await agentApi()
      const result = await run(
        server,
        { prompt: 'Document it', comment: 'true' },
        { eventName, event, env: { GITHUB_API_URL: github.url } }
      )
      expect(result.exitCode).toBe(0)
      expect(github.comments.map((comment) => comment.issue)).toEqual([number])
      expect(warningAnnotations(result)).toEqual([])
    }
  )
})

describe('inputs', () => {
  it('fails before any request, naming both, when neither prompt nor job-id is given', async () => {
    const { server } = await agentApi()
    const result = await run(server, {})
    expect(result.exitCode).toBe(1)
    expect(server.requests).toHaveLength(0)
    expect(errorAnnotations(result)[0]).toContain('Input "prompt" or "job-id" is required')
  })

  it('waits for a job started elsewhere with job-id alone, sending nothing', async () => {
    const { server } = await agentApi({
      existing: [{ jobId: 'job-9', activePolls: 1, final: { status: 'completed', prLink: PR } }]
    })
    const result = await run(server, { 'job-id': 'job-9' })
    expect(result.exitCode).toBe(0)
    expect(posts(server)).toHaveLength(0)
    expect(result.outputs).toMatchObject({ 'job-id': 'job-9', outcome: 'completed' })
  })

  it('builds every URL from base-url with ids that stay one path segment each', async () => {
    const seen: string[] = []
    const server = await serve((req, res) => {
      seen.push(req.url ?? '')
      sendJson(
        res,
        200,
        jobBody(
          { projectId: 'p/../x', jobId: 'j?admin=1#f', apiKey: KEY, final: { status: 'completed' } },
          'completed',
          null
        )
      )
    })
    const result = await run({ url: `${server.url}/gateway/` }, { 'project-id': 'p/../x', 'job-id': 'j?admin=1#f' })
    expect(result.exitCode).toBe(0)
    expect(seen).toEqual(['/gateway/v2/agent/p%2F..%2Fx/job/j%3Fadmin%3D1%23f'])
  })
})

/**
 * A port nothing listens on, that no other test's server can be given before this test's starts there: below the
 * range the kernel hands out for port 0, which every other server asks for.
 */
async function portBelowEphemeral(): Promise<number> {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '32768 60999')
  const low = Number(range.trim().split(/\s+/)[0]) || 32768
  for (let tries = 0; tries < 50; tries += 1) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000))
    const probe = await startServer(() => undefined, { port }).catch(() => undefined)
    if (probe === undefined) continue
    await probe.close()
    return port
  }
  throw new Error('No free port below the ephemeral range')
}
