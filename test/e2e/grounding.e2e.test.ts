// The grounding check on the bundle: the code names a docs pull request adds, looked up in the code (a checkout, or
// the repository's tarball) and in the docs before the change; reported in the outputs, the review on the docs pull
// request, the tracking comment and the log; with `grounding: fix`, one follow-up to the job and a check again, never
// sent twice across re-runs; unchecked, and green, without access to the docs repository.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentApiOptions } from '../../sim/agent-api.ts'
import type { FakeGitHubOptions, SimulatedFile } from '../../sim/github-api.ts'
import { repositoryTarball, tarball } from '../../sim/tarball.ts'
import { errorAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'
import { once } from './support/triggers.ts'

const KEY = 'mint_grounding_key_0123'
const PROJECT = 'docs'
const CODE_SHA = 'c'.repeat(40)
const BASE = 'b'.repeat(40)
const HEAD = 'd'.repeat(40)
const DOCS_PR = 'https://github.com/acme/site/pull/128'

const CODE: Record<string, string> = {
  'src/client.ts': 'export class Client {\n  users = { list() {}, create() {} }\n}\n',
  'src/cli.ts': "program.option('--dry-run', 'print what would change')\n",
  'README.md': 'The deleteMany() of the README is docs, not code.\n'
}
const DOCS_BEFORE = { 'docs/index.mdx': '# Acme\n\nInstall it with `npm install acme`.\n' }

/** docs/api.mdx as the agent's pull request adds it: every line added. */
function added(...lines: string[]): SimulatedFile {
  const patch = `@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}`
  return { filename: 'docs/api.mdx', status: 'added', additions: lines.length, deletions: 0, patch }
}
const CLEAN = added(
  '## Users',
  '',
  '```js',
  'const client = new Client()',
  'await client.users.list()',
  '```',
  '',
  'Pass `--dry-run` to preview.'
)
const INVENTED = added('## Users', '', '```js', 'const client = new Client()', 'await client.users.deleteMany()', '```')

const servers = loopback()
const run = bundleRunner({
  env: { GITHUB_SHA: CODE_SHA },
  inputs: {
    'project-id': PROJECT,
    'api-key': KEY,
    prompt: 'Document the users API',
    'poll-interval': '100ms',
    'max-poll-interval': '300ms'
  }
})

async function world(files: SimulatedFile, more: { github?: FakeGitHubOptions; api?: Partial<AgentApiOptions> } = {}) {
  const final = { status: 'completed', prLink: DOCS_PR }
  const { api, server } = await servers.agentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final },
    ...more.api
  })
  const github = await servers.github({
    pulls: { 'acme/site': [{ number: 128, state: 'open', labels: [], files: [files], baseSha: BASE, headSha: HEAD }] },
    tarballs: {
      [`acme/docs@${CODE_SHA}`]: repositoryTarball(`acme-docs-${CODE_SHA.slice(0, 7)}`, CODE),
      [`acme/site@${BASE}`]: repositoryTarball(`acme-site-${BASE.slice(0, 7)}`, DOCS_BEFORE)
    },
    ...more.github
  })
  return { api, server, github }
}

/** A checkout of acme/docs, as actions/checkout leaves one in GITHUB_WORKSPACE. */
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'grounding-checkout-'))
  for (const [path, text] of Object.entries(CODE)) {
    mkdirSync(join(dir, path, '..'), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { stdio: 'ignore' })
  git('init', '-q')
  git('remote', 'add', 'origin', 'https://github.com/acme/docs')
  git('add', '.')
  return dir
}

const ISSUE = { action: 'labeled', issue: { number: 12, title: 'Docs' } }
const ungroundedOf = (outputs: Record<string, string>) => JSON.parse(outputs['ungrounded'] ?? 'null') as unknown

describe('grounding', () => {
  it('passes a docs change whose every name is in the code, read from the checkout without a request for it', async () => {
    const { server, github } = await world(CLEAN)
    const result = await run(server, { grounding: 'report' }, { github, env: { GITHUB_WORKSPACE: checkout() } })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'completed', grounding: 'passed', ungrounded: '[]' })
    expect(JSON.parse(result.outputs['result'] ?? '{}')).toMatchObject({ grounding: 'passed', ungrounded: [] })
    expect(result.stdout).toContain('Grounding: the code is the checkout')
    expect(github.calls.filter((call) => call.startsWith('GET /repos/acme/docs/tarball'))).toEqual([])
    expect(github.reviews).toEqual([])
  })

  it('reports deleteMany() found nowhere on its line, green by default and red with fail-on: ungrounded; refuses a ../ entry', async () => {
    const top = 'acme-docs-ccccccc'
    const entries = Object.entries(CODE).map(([path, content]) => ({ path: `${top}/${path}`, content }))
    const escaping = { path: `${top}/../../evil.ts`, content: 'export function deleteMany() {}\n' }
    const { server, github } = await world(INVENTED, {
      github: {
        tarballs: {
          [`acme/docs@${CODE_SHA}`]: tarball([...entries, escaping]),
          [`acme/site@${BASE}`]: repositoryTarball('acme-site-b', DOCS_BEFORE)
        }
      }
    })
    const inputs = { grounding: 'report', comment: 'true' }
    const green = await run(server, inputs, {
      github,
      eventName: 'issues',
      event: { action: 'labeled', issue: { number: 12, title: 'Docs' } }
    })
    expect(green.exitCode, green.stdout).toBe(0)
    const finding = { name: 'client.users.deleteMany()', path: 'docs/api.mdx', line: 5 }
    expect(green.outputs).toMatchObject({ grounding: 'ungrounded' })
    expect(ungroundedOf(green.outputs)).toEqual([finding])
    expect(green.stdout).toContain('outside its folder: 1')
    expect(green.stdout).toContain('not found: client.users.deleteMany() (docs/api.mdx:5)')
    expect(github.reviews).toHaveLength(1)
    expect(github.reviews[0]?.comments).toMatchObject([{ path: 'docs/api.mdx', line: 5 }])
    expect(github.reviews[0]?.comments[0]?.body).toContain('`client.users.deleteMany()`')
    expect(github.comments[0]?.body).toContain(`/acme/site/blob/${HEAD}/docs/api.mdx#L5`)

    const red = await run(
      server,
      { ...inputs, 'fail-on': 'failed,ungrounded' },
      { github, eventName: 'issues', event: { action: 'labeled', issue: { number: 13, title: 'Docs' } } }
    )
    expect(red.exitCode).toBe(1)
    expect(errorAnnotations(red)[0]).toContain('found nowhere in the code')
    // One review a check: the earlier one is replaced, its line comment gone.
    expect(github.reviews).toHaveLength(2)
    expect(github.reviews[0]).toMatchObject({
      body: 'Replaced by a later grounding check of this pull request.',
      comments: []
    })
  })

  it('with grounding: fix, sends one follow-up naming deleteMany() with its file and line, and the corrected change is fixed', async () => {
    const { api, github } = await world(INVENTED)
    const corrected = (): void => {
      const pull = github.pulls.get('acme/site')
      if (pull?.[0]) pull[0] = { ...pull[0], files: [CLEAN] }
    }
    const served = await servers.serve((req, res, index) => {
      if (req.method === 'POST' && req.url?.endsWith('/message')) corrected()
      return api.respond(req, res, index)
    })
    const result = await run(served, { grounding: 'fix' }, { github, eventName: 'issues', event: ISSUE })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'completed', grounding: 'fixed', ungrounded: '[]' })
    const followUps = api.posts.filter((post) => post.what.startsWith('follow-up'))
    expect(followUps).toHaveLength(1)
    expect(String(followUps[0]?.prompt)).toContain('`docs/api.mdx`, line 5: `client.users.deleteMany()`')
  })

  it('a re-run after a kill while the follow-up is out sends nothing twice, and reports what it found', async () => {
    const { api, github } = await world(INVENTED)
    let followUps = 0
    const server = await servers.serve((req, res, index) => {
      if (req.method === 'POST' && req.url?.endsWith('/message')) {
        followUps += 1
        return // never answered: the runner dies meanwhile
      }
      return api.respond(req, res, index)
    })
    const inputs = { grounding: 'fix' }
    await run(server, inputs, {
      github,
      eventName: 'issues',
      event: ISSUE,
      env: { GITHUB_RUN_ATTEMPT: '1' },
      onSpawn: (child) =>
        once(
          () => followUps > 0,
          () => child.kill('SIGKILL')
        )
    })
    const rerun = await run(server, inputs, {
      github,
      eventName: 'issues',
      event: ISSUE,
      env: { GITHUB_RUN_ATTEMPT: '2' }
    })
    expect(followUps).toBe(1)
    expect(api.posts.filter((post) => post.what === 'create')).toHaveLength(1)
    expect(rerun.outputs).toMatchObject({ outcome: 'completed', grounding: 'ungrounded' })
    expect(rerun.stdout).toContain('already sent (or may have sent) the follow-up')
  })

  it('says unchecked, and why, when the docs repository cannot be read, and stays green', async () => {
    const { server, github } = await world(CLEAN, {
      github: { tarballs: { [`acme/docs@${CODE_SHA}`]: repositoryTarball('acme-docs-c', CODE) } }
    })
    const result = await run(server, { grounding: 'report' }, { github })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'completed', grounding: 'unchecked', ungrounded: '' })
    expect(result.stdout).toContain(
      'Grounding: the code names were not checked: Could not download acme/site at bbbbbbbbbbbb (HTTP 404): github-token reaches only this repository: pass a docs-token with pull-requests: write and contents: read on acme/site.'
    )
    expect(github.reviews).toEqual([])
  })
})
