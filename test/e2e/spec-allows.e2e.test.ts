// The promises held when the service, GitHub and people do what their descriptions allow: an admin API that marks
// no field of a job as required, a job that is not readable at once, statuses nobody listed, secrets that happen to
// be short, people who edit and delete comments. The bundle run as the runner runs it, against loopback servers.
import { join } from 'node:path'
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { jobBody, sendJson } from '../../sim/admin-api.ts'
import { readMarker } from '../../src/github/tracking-marker.ts'
import { errorAnnotations, expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { type ActionRun, runAction, type RunOptions } from './support/run-bundle.ts'

const KEY = 'mint_spec_allows_secret_key_0123'
const TOKEN = 'ghs_spec_allows_token_value_4567'
const PROJECT = 'docs'
const PR = 'https://github.com/acme/docs/pull/9'
const FAST = { 'poll-interval': '100ms', 'max-poll-interval': '200ms' }
const ISSUE_EVENT = { action: 'labeled', issue: { number: 12, title: 'Document /users' } }
const servers = loopback()

function run(
  base: { url: string } | undefined,
  inputs: Record<string, string>,
  options: Partial<RunOptions> = {}
): Promise<ActionRun> {
  return runAction({
    githubToken: TOKEN,
    ...options,
    inputs: { 'project-id': PROJECT, 'api-key': KEY, ...(base ? { 'base-url': base.url } : {}), ...FAST, ...inputs }
  })
}

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
    const server = await servers.serve((_req, res) => sendJson(res, 200, { hello: 'world' }))
    const result = await run(server, { 'job-id': 'job-1', timeout: '1s' })
    expect(result.exitCode).toBe(1)
    const [error] = errorAnnotations(result)
    expect(error).toContain("held no agent job: check that base-url is the Mintlify admin API's root")
    expect(error).not.toContain('reachable')
  })

  it("names the runner's DNS, not base-url, when the default base-url does not resolve", async () => {
    const result = await run(
      undefined,
      { 'job-id': 'job-1', timeout: '5s' },
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

  it('keeps polling through a status it does not know, warns once, and names it when the timeout ends', async () => {
    const server = await servers.serve((_req, res) => job(res, 'job-1', 'queued'))
    const result = await run(server, { 'job-id': 'job-1', timeout: '1s', 'fail-on': 'failed' })
    expect(result.exitCode).toBe(0)
    expect(server.requests.length).toBeGreaterThan(2)
    expect(warningAnnotations(result)).toEqual([
      'The API reported the status "queued", which this action does not know: it keeps polling until the job is completed, archived or failed.'
    ])
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
