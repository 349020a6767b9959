// Never a job twice across re-runs: a runner killed or cancelled mid-run, two steps of one run that send the same
// prompt, a record a re-run must not take its job from, and a comment listing that never ends.
import { describe, expect, it } from 'vitest'
import { sendJson } from '../../sim/admin-api.ts'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import { markerOf, promptHash } from '../../src/github/tracking-record.ts'
import { errorAnnotations } from '../support/expectations.ts'
import { issueRunner, onIssue, running } from './support/issue-step.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner, runAction } from './support/run-bundle.ts'
import { once, onSlowClock, SIGNAL_SEEN, steppedClock, whenLogged } from './support/triggers.ts'

const KEY = 'mint_rerun_attack_key_0123'
const TOKEN = 'ghs_rerun_attack_token_0123'
const PROJECT = 'docs'
const ISSUE = { action: 'labeled', issue: { number: 12, title: 'Docs' } }
const servers = loopback()

const run = bundleRunner({
  githubToken: TOKEN,
  eventName: 'issues',
  event: ISSUE,
  inputs: { 'project-id': PROJECT, 'api-key': KEY, 'poll-interval': '100ms', 'max-poll-interval': '300ms' }
})

describe('re-runs', () => {
  // One as the bundle meets it; a job no longer readable (400, 410) sends nothing alike, a row of
  // test/unit/decide/rerun.test.ts.
  it.each([404])(
    'a re-run whose earlier, still running job answers HTTP %i for a moment sends nothing again',
    async (status) => {
      const api = simulateAgentApi({
        projectId: PROJECT,
        apiKey: KEY,
        run: { activePolls: Infinity, final: { status: 'completed' } }
      })
      let lost = false
      const server = await servers.serve((req, res, index) => {
        if (lost && req.method === 'GET') return sendJson(res, status, { error: 'Agent job not found' })
        return api.respond(req, res, index)
      })
      const github = await servers.github()
      const inputs = { prompt: 'Document /users', comment: 'true' }
      // Attempt 1: the job starts, the comment says it runs, and the runner dies (kill -9).
      await run(server, inputs, {
        github,
        env: { GITHUB_RUN_ATTEMPT: '1' },
        onSpawn: (child) => {
          once(
            () => github.comments[0]?.body.includes('Mintlify agent job running') ?? false,
            () => child.kill('SIGKILL')
          )
        }
      })
      expect(api.posts).toHaveLength(1)
      // The API cannot find the job for a moment (it is still running).
      lost = true
      const rerun = await run(server, { ...inputs, timeout: '3s' }, { github, env: { GITHUB_RUN_ATTEMPT: '2' } })
      expect(rerun.stdout).not.toContain('this attempt sends it again')
      expect(api.posts).toHaveLength(1)
    }
  )

  it('kill -9 after the create was answered, before the comment says so (GitHub slow): the re-run sends nothing', async () => {
    const api = simulateAgentApi({
      projectId: PROJECT,
      apiKey: KEY,
      run: { activePolls: Infinity, final: { status: 'completed' } }
    })
    const server = await servers.serve(api.respond)
    let patches = 0
    const github = await servers.github({
      intercept: (call) => {
        if (call.startsWith('PATCH')) patches += 1
        return call.startsWith('PATCH') // edits never answered
      }
    })
    const inputs = { prompt: 'Document /users', comment: 'true' }
    await run(server, inputs, {
      github,
      env: { GITHUB_RUN_ATTEMPT: '1' },
      onSpawn: (child) =>
        once(
          () => patches > 0,
          () => child.kill('SIGKILL')
        )
    })
    const rerun = await run(server, { ...inputs, timeout: '3s' }, { github, env: { GITHUB_RUN_ATTEMPT: '2' } })
    expect(api.posts).toHaveLength(1)
    expect(rerun.outputs['outcome']).toBe('error')
  })

  it('kill -9 while a follow-up is out: the re-run sends nothing', async () => {
    const api = simulateAgentApi({
      projectId: PROJECT,
      apiKey: KEY,
      existing: [{ jobId: 'job-7', activePolls: 0, final: { status: 'completed' } }]
    })
    let posts = 0
    const server = await servers.serve((req, res, index) => {
      if (req.method === 'POST') {
        posts += 1
        if (posts === 1) return // never answered: the runner dies meanwhile
      }
      return api.respond(req, res, index)
    })
    const github = await servers.github()
    const inputs = { prompt: 'Also /teams', 'job-id': 'job-7', comment: 'true' }
    await run(server, inputs, {
      github,
      env: { GITHUB_RUN_ATTEMPT: '1' },
      onSpawn: (child) =>
        once(
          () => posts > 0,
          () => child.kill('SIGKILL')
        )
    })
    const rerun = await run(server, { ...inputs, timeout: '3s' }, { github, env: { GITHUB_RUN_ATTEMPT: '2' } })
    expect(posts).toBe(1)
    expect(rerun.outputs['outcome']).toBe('error')
  })

  it('a re-run of a cancelled run whose job completed meanwhile with a pull request takes that result', async () => {
    const api = simulateAgentApi({
      projectId: PROJECT,
      apiKey: KEY,
      run: { activePolls: Infinity, final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/1' } }
    })
    const server = await servers.serve(api.respond)
    const github = await servers.github()
    const inputs = { prompt: 'Document /users', comment: 'true' }
    const first = await run(server, inputs, {
      github,
      env: { GITHUB_RUN_ATTEMPT: '1' },
      onSpawn: (child) =>
        once(
          () => github.comments[0]?.body.includes('Mintlify agent job running') ?? false,
          () => child.kill('SIGINT')
        )
    })
    expect(first.outputs['outcome']).toBe('cancelled')
    // Meanwhile the job completes, with its pull request.
    const job = api.jobs.get('job-1')
    if (job) job.run = { activePolls: 0, final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/1' } }
    // Its first read ends the re-run: the timeout only stops one that would wait for a second job.
    const rerun = await run(server, { ...inputs, timeout: '5m' }, { github, env: { GITHUB_RUN_ATTEMPT: '2' } })
    expect(api.posts).toHaveLength(1)
    expect(rerun.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1' })
  })

  it('a cancel while the first record of a start is being written: the record says nothing was sent, and a re-run starts the job', async () => {
    const api = simulateAgentApi({
      projectId: PROJECT,
      apiKey: KEY,
      run: { activePolls: 0, final: { status: 'completed' } }
    })
    const server = await servers.serve(api.respond)
    let firstPost = true
    let cancelled: Promise<void> | undefined
    // GitHub makes the comment that records the start only once the step has its cancel: the cancel comes while it does.
    const github = await servers.github({
      holdUntil: (call) => {
        if (call !== 'POST /repos/acme/docs/issues/12/comments' || !firstPost) return undefined
        firstPost = false
        return cancelled
      }
    })
    const inputs = { prompt: 'Document /users', comment: 'true' }
    const first = await run(server, inputs, {
      github,
      env: { GITHUB_RUN_ATTEMPT: '1' },
      nodeArgs: SIGNAL_SEEN,
      onSpawn: (child) => {
        cancelled = whenLogged(child, 'received SIGINT', 'stderr')
        once(
          () => github.calls.includes('POST /repos/acme/docs/issues/12/comments'),
          () => child.kill('SIGINT')
        )
      }
    })
    expect(first.outputs).toMatchObject({ outcome: 'cancelled', 'job-id': '' })
    expect(api.posts).toHaveLength(0)
    const recorded = github.comments[0]?.body ?? ''
    const rerun = await run(server, inputs, { github, env: { GITHUB_RUN_ATTEMPT: '2' } })
    expect(rerun.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1' })
    expect(api.posts).toHaveLength(1)
    expect(recorded).toContain(
      'Run cancelled**: this workflow run was cancelled before it sent the prompt, so nothing was started'
    )
  })

  it('a cancel while a start waits out a rate limit says in the comment that nothing was started', async () => {
    const server = await servers.serve((req, res) =>
      req.method === 'POST' ? sendJson(res, 429, { error: 'Rate limit exceeded' }, { 'retry-after': '30' }) : res.end()
    )
    const github = await servers.github()
    const result = await run(
      server,
      { prompt: 'Document /users', comment: 'true' },
      {
        github,
        onSpawn: (child) =>
          once(
            () => server.requests.length > 0,
            () => child.kill('SIGINT')
          )
      }
    )
    expect(result.outputs).toMatchObject({ outcome: 'cancelled', 'job-id': '' })
    const body = github.comments[0]?.body ?? ''
    expect(body).toContain('this workflow run was cancelled before it sent the prompt, so nothing was started')
    expect(body).not.toContain('may still be running')
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

describe('hostile GitHub', () => {
  const runWith = issueRunner(servers, { key: KEY, token: TOKEN })

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
})
