// Careless inputs: each an input error before any request, or harmless, and never a way to show the key.
import { describe, expect, it } from 'vitest'
import { sendJson } from '../../sim/admin-api.ts'
import { readActionMetadata } from '../../sim/run-action.ts'
import { errorAnnotations, warningAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner, runAction } from './support/run-bundle.ts'

const KEY = 'mint_inputs_attack_key_0123'
const servers = loopback()

const run = bundleRunner({
  githubToken: 'ghs_inputs_attack_token_01',
  inputs: { 'project-id': 'docs', 'api-key': KEY, prompt: 'Go' }
})

describe('careless inputs', () => {
  it.each([
    ['timeout', '5 m'],
    ['timeout', '1e3'],
    ['timeout', '-1'],
    ['timeout', '0'],
    ['poll-interval', '0.1ms'],
    ['fail-on', 'failed;timeout'],
    ['fail-on', 'error'],
    ['context', 'true'],
    ['context-limit', '1e4'],
    ['context-limit', '20,000'],
    ['context-limit', '499'],
    ['base-url', 'https://api.mintlify.com/v2/'],
    ['base-url', 'http://127.0.0.1.nip.io'],
    ['base-url', 'https://user:pw@api.mintlify.com'],
    ['base-url', 'api.mintlify.com'],
    ['issue-number', '12.0'],
    ['issue-number', '０１２'],
    ['wait', 'yes'],
    ['api-key', `${KEY}\u200b`],
    ['api-key', `${KEY.slice(0, 8)} ${KEY.slice(8)}`],
    ['project-id', '..']
  ])('%s: %j is an input error before any request, that does not show the key', async (name, value) => {
    const server = await servers.serve((_req, res) => sendJson(res, 500, {}))
    const result = await run(server, { [name]: value })
    expect(server.requests).toHaveLength(0)
    expect(result.outputs['outcome']).toBe('error')
    expect(errorAnnotations(result).join('\n')).toContain(`"${name}"`)
    expect(
      result.stdout.split('\n').filter((line) => line.includes(KEY.slice(5)) && !line.startsWith('::add-mask::'))
    ).toEqual([])
  })

  it("a prompt reaches the agent whole up to the runner's limit for one variable, which action.yml states; past it the step cannot start", async () => {
    const { api, server } = await servers.agentApi({
      projectId: 'docs',
      apiKey: KEY,
      run: { activePolls: 0, final: { status: 'completed' } }
    })
    // Linux holds one environment variable, `INPUT_PROMPT=`, its value and its end, in 128 KiB.
    const limit = 128 * 1024 - 'INPUT_PROMPT='.length - 1
    const result = await run(server, { prompt: 'x'.repeat(limit), 'poll-interval': '50ms' })
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(String(api.posts[0]?.prompt)).toHaveLength(limit)
    await expect(run(server, { prompt: 'x'.repeat(limit + 1) })).rejects.toThrow('E2BIG')
    const { inputs } = await readActionMetadata()
    expect(inputs['prompt']?.description).toContain(`At most about 128 KB (${limit.toLocaleString('en-US')} bytes`)
  })

  it('api-key with a trailing line break (a pasted secret) works', async () => {
    const server = await servers.serve((req, res) => {
      if (req.headers.authorization !== `Bearer ${KEY}`) return sendJson(res, 401, { error: 'bad key' })
      sendJson(res, req.method === 'POST' ? 201 : 200, { id: 'job-1', status: 'completed' })
    })
    const result = await run(server, { 'api-key': `${KEY}\n`, 'poll-interval': '50ms' })
    expect(result.outputs['outcome']).toBe('completed')
  })

  it('a one-character github-token: comment warns, the job is unaffected, and the runner log is not one long mask', async () => {
    const server = await servers.serve((req, res) =>
      sendJson(res, req.method === 'POST' ? 201 : 200, { id: 'job-1', status: 'completed' })
    )
    const github = await servers.github({ refuseWrites: 401 })
    const result = await runAction({
      githubToken: 'x',
      eventName: 'issues',
      event: { action: 'opened', issue: { number: 12 } },
      env: { GITHUB_API_URL: github.url },
      inputs: {
        'project-id': 'docs',
        'api-key': KEY,
        'base-url': server.url,
        prompt: 'Go',
        comment: 'true',
        'poll-interval': '50ms'
      }
    })
    expect(result.outputs['outcome']).toBe('completed')
    expect(result.exitCode).toBe(0)
    expect(warningAnnotations(result).join('\n')).toMatch(/github-token|too short|permission/)
  })

  it('project-id holding what looks like an admin key (swapped inputs) is never written into the public comment, nor its edits', async () => {
    const server = await servers.serve((_req, res) => sendJson(res, 401, { error: 'Invalid API key' }))
    const written: string[] = []
    const holder: { github?: Awaited<ReturnType<typeof servers.github>> } = {}
    holder.github = await servers.github({
      failAfterWriting: () => {
        written.push(...(holder.github?.comments.map((comment) => comment.body) ?? []))
        return undefined
      }
    })
    const result = await runAction({
      githubToken: 'ghs_inputs_attack_token_01',
      eventName: 'issues',
      event: { action: 'opened', issue: { number: 12 } },
      env: { GITHUB_API_URL: holder.github.url },
      inputs: { 'project-id': KEY, 'api-key': 'proj_12345', 'base-url': server.url, prompt: 'Go', comment: 'true' }
    })
    const decoded = written.map((body) => {
      const payload = /^<!-- \S+ \S+ (\S+) -->/.exec(body)?.[1] ?? ''
      return Buffer.from(payload, 'base64url').toString('utf8')
    })
    expect([...written, ...decoded].filter((text) => text.includes(KEY)).length).toBe(0)
    expect(result.summary).not.toContain(KEY.replaceAll('_', '&#95;'))
  })

  it('an input given empty (an unset inputs.x or vars.X forwarded) acts as if it were not given: its default', async () => {
    const server = await servers.serve((req, res) =>
      sendJson(res, req.method === 'POST' ? 201 : 200, { id: 'job-1', status: 'completed' })
    )
    const empty = { context: '', timeout: '', 'poll-interval': '', 'max-poll-interval': '', 'request-timeout': '' }
    const result = await run(server, {
      ...empty,
      'context-limit': '',
      wait: '',
      'follow-up': '',
      preview: '',
      comment: ''
    })
    expect(errorAnnotations(result)).toEqual([])
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1' })
    expect(result.stdout).toContain('(timeout 30m, polling every 5s growing to 30s)')
  })

  it('says that job-id wins when follow-up: true is given with it', async () => {
    const server = await servers.serve((req, res) =>
      sendJson(res, 200, { id: 'job-7', status: req.method === 'POST' ? 'active' : 'completed' })
    )
    const result = await run(server, { 'job-id': 'job-7', 'follow-up': 'true', 'poll-interval': '50ms' })
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-7' })
    expect(result.stdout).toContain(
      '::notice::Input "follow-up" is true, and "job-id" names the job: the prompt goes to that job.'
    )
    expect(server.requests.map((request) => `${request.method} ${request.url}`)[0]).toBe(
      'POST /v2/agent/docs/job/job-7/message'
    )
  })

  it('a duration error suggests no duration under the 1s a remote API needs', async () => {
    const result = await run({ url: 'https://api.mintlify.test' }, { 'poll-interval': 'often' })
    const [error] = errorAnnotations(result)
    expect(error).toContain('Input "poll-interval" must be a positive duration such as 10s, 5m, 1h')
    expect(error).not.toContain('500ms')
  })

  it('a missing project-id hints that vars.MINTLIFY_PROJECT_ID may be unset here', async () => {
    const result = await run({ url: 'https://api.mintlify.test' }, { 'project-id': '' })
    expect(errorAnnotations(result)[0]).toContain(
      'Input "project-id" is required: the project id shown on the dashboard\'s API keys page. Empty means the variable it comes from (such as vars.MINTLIFY_PROJECT_ID) is not set for this repository or environment.'
    )
  })
})
