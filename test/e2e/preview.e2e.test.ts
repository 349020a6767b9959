// preview: true: once the job completes with a pull request, the preview of its branch is built and waited for,
// told through the outputs, the log, the summary and the tracking comment, and a failed build fails the step by
// default. The bundle run as the runner runs it, against loopback servers.
import { describe, expect, it } from 'vitest'
import { sendJson } from '../../sim/admin-api.ts'
import type { AgentApiOptions } from '../../sim/agent-api.ts'
import { errorAnnotations, warningAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner, type RunOptions } from './support/run-bundle.ts'
import { once, steppedClock } from './support/triggers.ts'

const KEY = 'mint_preview_secret_key_0123456'
const PROJECT = 'docs'
const PR = 'https://github.com/acme/docs/pull/128'
const URL_OF_JOB_1 = 'https://acme-mintlify-job-1.mintlify.app/'
const servers = loopback()

function api(options: Partial<AgentApiOptions> = {}) {
  return servers.agentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink: PR } },
    ...options
  })
}

const run = bundleRunner({
  inputs: {
    'project-id': PROJECT,
    'api-key': KEY,
    'poll-interval': '100ms',
    'max-poll-interval': '200ms',
    prompt: 'Document it',
    preview: 'true'
  }
})

describe('preview: true', () => {
  it("builds the preview of the agent's branch, and hands on its address, its status and the branch", async () => {
    const { api: agent, server } = await api()
    const result = await run(server)
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({
      outcome: 'completed',
      prLink: PR,
      branch: 'mintlify/job-1',
      'docs-repository': 'https://github.com/acme/docs',
      'preview-url': URL_OF_JOB_1,
      'preview-status': 'success'
    })
    expect(agent.previews.triggers).toEqual([{ branch: 'mintlify/job-1', status: 202 }])
    expect(result.stdout).toContain(`The preview will be at ${URL_OF_JOB_1}; waiting for its build.`)
    expect(result.stdout).toMatch(/\nPreview build: success \(after \d+/)
    expect(result.summary).toContain(`<tr><th>Preview</th><td>success <a href="${URL_OF_JOB_1}">`)
  })

  it("fails the step on a failed build by default, with the build's summary and last log lines, and keeps the job's outcome", async () => {
    const logs = Array.from({ length: 30 }, (_, n) => `step ${n}`).concat([
      'Error: broken link /api/retry in api/client.mdx'
    ])
    const { server } = await api({
      previews: { build: { final: 'failure', summary: 'The build failed: 1 broken link.', logs } }
    })
    const result = await run(server)
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({
      outcome: 'completed',
      status: 'completed',
      prLink: PR,
      'preview-status': 'failure',
      'preview-url': URL_OF_JOB_1
    })
    expect(errorAnnotations(result)).toEqual([
      expect.stringContaining('Its preview failed to build (The build failed: 1 broken link.)') as string
    ])
    expect(result.stdout).toContain(
      'The preview failed to build: The build failed: 1 broken link.. The last lines of its log:'
    )
    expect(result.stdout).toContain('  | Error: broken link /api/retry in api/client.mdx')
    expect(result.stdout).not.toContain('  | step 15\n')
    expect(result.summary).toContain('<tr><th>Build</th><td>The build failed: 1 broken link.<br>')
  })

  // A failed build that fail-on leaves out passes: a row of test/unit/report/verdict.test.ts.
  it('warns, and passes, when the plan has no previews', async () => {
    const { server } = await api({ previews: { noPlan: true } })
    const result = await run(server)
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ 'preview-status': 'unavailable', 'preview-url': '', outcome: 'completed' })
    expect(warningAnnotations(result)).toEqual([
      "No preview: previews are not on this organization's plan (HTTP 403: Preview deployments are not available on your current plan.)."
    ])
  })

  it('triggers once more after a 429, no sooner than Retry-After, naming the limit', async () => {
    const { api: agent } = await api()
    let refused = false
    const server = await servers.serve((req, res, index) => {
      if (req.method === 'POST' && req.url?.startsWith('/v1/') && !refused) {
        refused = true
        return sendJson(res, 429, { error: 'Rate limit exceeded' }, { 'retry-after': '1' })
      }
      return agent.respond(req, res, index)
    })
    const result = await run(server)
    expect(result.exitCode, result.stdout).toBe(0)
    const triggers = server.requests.filter((request) => request.method === 'POST' && request.url.startsWith('/v1/'))
    expect(triggers).toHaveLength(2)
    expect((triggers[1]?.at ?? 0) - (triggers[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000)
    expect(agent.previews.triggers).toEqual([{ branch: 'mintlify/job-1', status: 202 }])
    expect(result.stdout).toContain('Mintlify allows 5 preview deployments a minute per organization.')
  })

  it('triggers again after a reset, and follows the build through a 404 and a 502, triggering nothing more', async () => {
    const { api: agent } = await api()
    let reset = false
    const buildFaults = [404, 502]
    const server = await servers.serve((req, res, index) => {
      if (req.method === 'POST' && req.url?.startsWith('/v1/') && !reset) {
        reset = true
        return req.socket.destroy()
      }
      const fault = req.url?.startsWith('/v1/project/update-status/') ? buildFaults.shift() : undefined
      if (fault !== undefined) return sendJson(res, fault, { error: fault === 404 ? 'Not found' : 'Bad gateway' })
      return agent.respond(req, res, index)
    })
    const result = await run(server)
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ 'preview-status': 'success', 'preview-url': URL_OF_JOB_1 })
    const triggers = server.requests.filter((request) => request.method === 'POST' && request.url.startsWith('/v1/'))
    expect(triggers).toHaveLength(2)
    expect(agent.previews.triggers).toEqual([{ branch: 'mintlify/job-1', status: 202 }])
    expect(result.stdout).toContain("Could not read the preview's build: HTTP 404: Not found; trying again in")
    expect(result.stdout).toContain("Could not read the preview's build: HTTP 502: Bad gateway; trying again in")
  })

  it('ends a build that outlasts the timeout as building, with the address set, and the job completed', async () => {
    const clock = steppedClock()
    const { api: agent } = await api({ previews: { build: { queuedPolls: 1000, final: 'success' } } })
    // The first read of the build's status moves the step's clock past its timeout.
    const server = await servers.serve(
      clock.jumpingAt(agent.respond, (req) => req.url?.startsWith('/v1/project/update-status/') ?? false)
    )
    const result = await run(server, clock.inputs, clock.with())
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({
      outcome: 'completed',
      'preview-status': 'building',
      'preview-url': URL_OF_JOB_1
    })
    expect(warningAnnotations(result)).toEqual([
      `The preview was not built yet: it was still queued when the timeout ran out. It will be at ${URL_OF_JOB_1}.`
    ])
  })

  it('keeps the address when the run is cancelled while the preview builds', async () => {
    const { api: agent, server } = await api({ previews: { build: { queuedPolls: 1000, final: 'success' } } })
    const result = await run(
      server,
      {},
      {
        onSpawn: (child) =>
          once(
            () => agent.previews.triggers.length > 0,
            () => child.kill('SIGTERM')
          )
      }
    )
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({
      'preview-url': URL_OF_JOB_1,
      'preview-status': 'building',
      'job-id': 'job-1'
    })
  })

  // One as the bundle meets it; a job that failed or timed out, or gave no branch, is a row of
  // test/unit/wait/preview.test.ts.
  it.each([
    [
      'the agent opened no pull request',
      { run: { activePolls: 0, final: { status: 'completed', prLink: null } } },
      'the agent opened no pull request, so there is nothing to preview'
    ]
  ])('triggers nothing when %s, and says why', async (_, options, reason) => {
    const { api: agent, server } = await api(options)
    const result = await run(server, { 'fail-on': '' })
    expect(agent.previews.triggers).toEqual([])
    expect(result.outputs).toMatchObject({ 'preview-status': 'unavailable', 'preview-url': '' })
    expect(result.stdout).toContain(`No preview: ${reason}.`)
  })

  it('a re-run after a failed build builds the preview again, and starts no second agent job', async () => {
    const github = await servers.github()
    const { api: agent } = await api()
    let buildsFail = true
    const server = await servers.serve((req, res, index) => {
      if (buildsFail && req.url?.startsWith('/v1/project/update-status/'))
        return sendJson(res, 200, { status: 'failure', summary: '1 broken link', logs: [] })
      return agent.respond(req, res, index)
    })
    const attempt = (number: string): Partial<RunOptions> => ({
      eventName: 'issues',
      event: { action: 'labeled', issue: { number: 12 } },
      env: { GITHUB_API_URL: github.url, GITHUB_RUN_ATTEMPT: number }
    })
    const first = await run(server, { comment: 'true' }, attempt('1'))
    expect(first.exitCode).toBe(1)
    expect(first.outputs).toMatchObject({ outcome: 'completed', 'preview-status': 'failure' })
    buildsFail = false
    const rerun = await run(server, { comment: 'true' }, attempt('2'))
    expect(rerun.exitCode, rerun.stdout).toBe(0)
    expect(rerun.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1', 'preview-status': 'success' })
    expect(agent.posts).toHaveLength(1)
    expect(agent.previews.triggers).toHaveLength(2)
    expect(rerun.stdout).toContain(
      'which completed with a pull request: taking its result instead of sending the prompt again.'
    )
    expect(github.comments).toHaveLength(1)
  })

  it('shows the preview on the tracking comment: building with its address, then ready', async () => {
    const github = await servers.github()
    const { server } = await api({ previews: { build: { queuedPolls: 3, buildingPolls: 3, final: 'success' } } })
    const result = await run(
      server,
      { comment: 'true' },
      {
        eventName: 'issues',
        event: { action: 'labeled', issue: { number: 12 } },
        env: { GITHUB_API_URL: github.url }
      }
    )
    expect(result.exitCode, result.stdout).toBe(0)
    const building = github.written.filter((version) => version.body.includes('Preview building'))
    expect(building[0]?.body).toContain(`🔄 **Preview building**: <a href="${URL_OF_JOB_1}">`)
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0]?.body).toContain(`🔍 **Preview ready**: <a href="${URL_OF_JOB_1}">`)
  })
})

describe('without preview', () => {
  it("hands on the job's branch and docs repository, and no preview", async () => {
    const { server } = await api()
    const result = await run(server, { preview: 'false' })
    expect(result.outputs).toMatchObject({
      branch: 'mintlify/job-1',
      'docs-repository': 'https://github.com/acme/docs',
      'preview-url': '',
      'preview-status': ''
    })
  })
})
