// Secrets hidden in URLs the API or GitHub gives: parsing a URL drops tabs and line breaks and folds a host's
// letters, which could put a secret back together after the text was redacted. None may show anywhere.
import { describe, expect, it } from 'vitest'
import { sendJson } from '../../sim/admin-api.ts'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import { loopback } from './support/loopback.ts'
import { runAction } from './support/run-bundle.ts'

const KEY = 'mint_attack_SECRET_key_0123456789'
const TOKEN = 'ghs_attack_token_abcdefghijkl'
const PROJECT = 'docs'
const servers = loopback()

/** Where the secret (as it is, or HTML-escaped as the summary and the comment escape it) shows. */
function whereShown(run: Awaited<ReturnType<typeof runAction>>, secret: string, comments: string[] = []): string[] {
  const forms = [secret, secret.replaceAll('_', '&#95;')].map((form) => form.toLowerCase())
  const holds = (text: string) => forms.some((form) => text.toLowerCase().includes(form))
  return [
    ...Object.entries(run.outputs)
      .filter(([, value]) => holds(value))
      .map(([name]) => `output ${name}`),
    ...(holds(run.summary) ? ['summary'] : []),
    ...comments.filter(holds).map(() => 'tracking comment'),
    ...shown(run.stdout, secret).map((line) => `log: ${line.slice(0, 60)}`)
  ]
}

/** Lines that hold the secret, apart from the runner's own ::add-mask:: command. */
function shown(text: string, secret: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.toLowerCase().includes(secret.toLowerCase()) && !line.startsWith('::add-mask::'))
}

/** A run that starts a job on issue #12 and keeps its tracking comment there. */
function runTracked(baseUrl: string, githubUrl: string, inputs: Record<string, string> = {}) {
  return runAction({
    inputs: {
      'project-id': PROJECT,
      'api-key': KEY,
      'base-url': baseUrl,
      prompt: 'Go',
      'poll-interval': '50ms',
      comment: 'true',
      ...inputs
    },
    eventName: 'issues',
    event: { action: 'opened', issue: { number: 12 } },
    githubToken: TOKEN,
    env: { GITHUB_API_URL: githubUrl }
  })
}

describe('secrets in URLs', () => {
  it('a prLink that splits the key with a tab or line break (removed by URL parsing) never shows the key', async () => {
    const split = `${KEY.slice(0, 10)}\t${KEY.slice(10)}`
    const server = await servers.serve((req, res) => {
      if (req.method === 'POST') return sendJson(res, 201, { id: 'job-1', status: 'active' })
      sendJson(res, 200, {
        id: 'job-1',
        status: 'completed',
        prLink: `https://github.com/acme/docs/pull/128?from=${split}`
      })
    })
    const github = await servers.github()
    const run = await runTracked(server.url, github.url)
    const comments = github.comments.map((comment) => comment.body)
    expect(whereShown(run, KEY, comments)).toEqual([])
  })

  it('a previewUrl that echoes the key is redacted like every other field', async () => {
    const api = simulateAgentApi({
      projectId: PROJECT,
      apiKey: KEY,
      run: { activePolls: 1, final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/128' } }
    })
    const server = await servers.serve((req, res, index) => {
      if (req.method === 'POST' && (req.url ?? '').startsWith('/v1/project/preview/')) {
        return sendJson(res, 202, { statusId: 'status-1', previewUrl: `https://acme.mintlify.app/?key=${KEY}` })
      }
      if (req.method === 'GET' && (req.url ?? '').startsWith('/v1/project/update-status/')) {
        return sendJson(res, 200, { status: 'success', summary: 'ok', logs: [] })
      }
      return api.respond(req, res, index)
    })
    const github = await servers.github()
    const run = await runTracked(server.url, github.url, { preview: 'true' })
    const comments = github.comments.map((comment) => comment.body)
    expect(whereShown(run, KEY, comments)).toEqual([])
  })

  it("a comment's html_url that splits the token with a tab never shows the token", async () => {
    const server = await servers.serve((req, res) => {
      if (req.method === 'POST') return sendJson(res, 201, { id: 'job-1', status: 'active' })
      sendJson(res, 200, { id: 'job-1', status: 'completed', prLink: null })
    })
    const github = await servers.github({
      htmlUrl: (comment) =>
        `https://github.com/acme/docs/issues/12?t=${TOKEN.slice(0, 8)}\t${TOKEN.slice(8)}#issuecomment-${comment.id}`
    })
    const run = await runTracked(server.url, github.url)
    expect(
      whereShown(
        run,
        TOKEN,
        github.comments.map((comment) => comment.body)
      )
    ).toEqual([])
  })

  it('a prLink whose host spells the key in full-width letters (IDNA maps them to ASCII) never shows it', async () => {
    const fullWidth = Array.from(KEY.toLowerCase())
      .map((char) => (/[a-z0-9_]/.test(char) ? String.fromCodePoint((char.codePointAt(0) ?? 0) + 0xfee0) : char))
      .join('')
    const server = await servers.serve((req, res) => {
      if (req.method === 'POST') return sendJson(res, 201, { id: 'job-1', status: 'active' })
      sendJson(res, 200, { id: 'job-1', status: 'completed', prLink: `https://${fullWidth}.example/pull/1` })
    })
    const run = await runAction({
      inputs: { 'project-id': PROJECT, 'api-key': KEY, 'base-url': server.url, prompt: 'Go', 'poll-interval': '50ms' }
    })
    expect(whereShown(run, KEY)).toEqual([])
  })
})
