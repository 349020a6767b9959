// The toolkit's own runner for actions, @github/local-action, runs src/main.ts with only the required inputs and a
// prompt: action.yml's defaults apply (base-url https://api.mintlify.com, reached here through a proxy that leads
// to the simulated API), and its report shows every output the action set.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { sendJson, startServer } from '../../sim/admin-api.ts'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import { startProxy } from '../../sim/loopback-proxy.ts'
import { readActionMetadata, ROOT } from '../../sim/run-action.ts'
import { loopback } from './support/loopback.ts'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures')
const KEY = 'mint_local_action_key'
const PR = 'https://github.com/acme/docs/pull/31'

const servers = loopback()

it('runs under local-action with only the required inputs and a prompt, and reports every output', async () => {
  const [key, cert] = await Promise.all(
    ['key', 'cert'].map((name) => readFile(join(FIXTURES, `loopback-${name}.pem`), 'utf8'))
  )
  const agents = simulateAgentApi({
    projectId: 'proj',
    apiKey: KEY,
    run: { activePolls: 0, final: { status: 'completed', prLink: PR } }
  })
  const api = await startServer(agents.respond, { tls: { key: key ?? '', cert: cert ?? '' } })
  // GitHub, for the grounding check (on by default): it holds no such pull request, so the check says unchecked.
  const github = await startServer((_req, res) => sendJson(res, 404, { message: 'Not Found' }), {
    tls: { key: key ?? '', cert: cert ?? '' }
  })
  const proxy = await startProxy({
    routes: { 'api.mintlify.com:443': new URL(api.url).host, 'api.github.com:443': new URL(github.url).host }
  })
  const dir = await mkdtemp(join(tmpdir(), 'local-action-'))
  servers.track(api)
  servers.track(github)
  servers.track(proxy)
  servers.track({ close: () => rm(dir, { recursive: true, force: true }) })

  const required = Object.entries((await readActionMetadata()).inputs).filter(([, input]) => input.required)
  expect(required.map(([name]) => name).sort()).toEqual(['api-key', 'project-id'])
  const envFile = join(dir, '.env')
  await writeFile(
    envFile,
    [
      'INPUT_PROJECT-ID=proj',
      `INPUT_API-KEY=${KEY}`,
      'INPUT_PROMPT="Document the /users endpoint.\nAdd an example."',
      ''
    ].join('\n')
  )

  const child = spawn('npx', ['local-action', '.', 'src/main.ts', envFile], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: dir,
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: join(FIXTURES, 'loopback-cert.pem'),
      // local-action runs through `npm exec`, which needs nothing from the registry here.
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false'
    }
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const code = await new Promise((resolve) => child.on('close', resolve))

  expect(code, output).toBe(0)
  expect(new Set(proxy.carried)).toEqual(new Set(['CONNECT api.mintlify.com:443', 'CONNECT api.github.com:443']))
  expect(github.requests.every((request) => request.method === 'GET')).toBe(true)
  expect(api.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
    'POST /v2/agent/proj/job',
    'GET /v2/agent/proj/job/job-1'
  ])
  expect(agents.posts).toEqual([{ what: 'create', prompt: 'Document the /users endpoint.\nAdd an example.' }])
  const report = output.slice(output.indexOf('Action Outputs'))
  for (const [name, value] of [
    ['status', 'completed'],
    ['outcome', 'completed'],
    ['job-id', 'job-1'],
    ['prLink', PR],
    ['pr-number', '31'],
    ['pr-repository', 'acme/docs'],
    ['grounding', 'unchecked']
  ]) {
    expect(report).toMatch(new RegExp(`│ '${name}'\\s*│ '${value ?? ''}'`))
  }
  expect(report).not.toContain('No outputs were set!')
  expect(output).not.toContain(KEY)
})
