import { afterAll, describe, expect, it } from 'vitest'
import { startFakeGitHub } from '../../../sim/github-api.ts'
import { settingsOf } from '../../../sim/settings.ts'
import { DocsReview } from '../../../src/github/review.ts'
import { openSession } from '../../../src/github/session.ts'
import { openTransport } from '../../../src/transport/transport.ts'

const opened = openTransport([], { http: undefined, https: undefined, noProxy: '' }, new AbortController().signal)
afterAll(() => opened.close())

const QUIET = { info: () => undefined, warning: () => undefined, debug: () => undefined }

/** The warning when GitHub refuses the grounding review on acme/`repo`#5, from a workflow in acme/api. */
async function refused(repo: string, inputs: Record<string, string> = {}): Promise<string> {
  const github = await startFakeGitHub({
    owner: 'acme',
    repo: 'api',
    viewer: 'github-actions[bot]',
    intercept: (call, _req, res) => {
      if (!call.startsWith(`GET /repos/acme/${repo}/pulls/5/reviews`)) return false
      res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Resource not accessible"}')
      return true
    }
  })
  try {
    const session = openSession(
      settingsOf({ 'github-token': 'ghs_token', ...inputs }),
      opened.transport,
      { repository: 'acme/api', log: QUIET, deadlineMs: 20_000 },
      { eventName: 'push', payload: {}, apiUrl: github.url, serverUrl: 'https://github.com', runId: 7, runAttempt: 1 }
    )
    const done = await new DocsReview(session).replace({ owner: 'acme', repo, number: 5 }, undefined, 'Replaced.')
    return done.kind === 'warning' ? done.warning : ''
  } finally {
    await github.close()
  }
}

describe('the grounding review refused', () => {
  it("asks for the permission when the docs are in the workflow's own repository", async () => {
    const warning = await refused('api')
    expect(warning).toContain('the workflow needs permissions: pull-requests: write')
    expect(warning).not.toContain('docs-token')
  })

  it('asks for a docs-token when the docs are in another repository', async () => {
    expect(await refused('docs')).toContain(
      'github-token reaches only this repository: pass a docs-token with pull-requests: write and contents: read on acme/docs'
    )
  })

  it('asks the docs-token for the permission when one is given', async () => {
    expect(await refused('docs', { 'docs-token': 'ghs_docs' })).toContain(
      'docs-token needs pull-requests: write on acme/docs'
    )
  })
})
