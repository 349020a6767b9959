// Promises held under attack, against the simulated admin API and GitHub: a user who registered an app's name is not
// taken for the action; a comment that asks nothing costs nothing, and a check run sits on the commit it describes,
// once; a batch of more merged pull requests than one listing holds leaves none out; max-jobs-per-hour holds in a busy
// repository; docs-paths counts where a renamed file came from.
import { describe, expect, it } from 'vitest'
import type { FakeGitHubOptions } from '../../sim/github-api.ts'
import { markerOf, promptHash, type TrackingState } from '../../src/github/tracking-record.ts'
import { errorAnnotations, warningAnnotations } from '../support/expectations.ts'
import { historyOf, shaOf } from './support/batch-history.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'

const KEY = 'mint_attack_secret_key_0123'
const TOKEN = 'ghs_attack_token_value_0123'
const PROJECT = 'docs'
const DOCS_PR = 'https://github.com/acme/docs/pull/128'
const HEAD = 'a'.repeat(40)

const servers = loopback()
const run = bundleRunner({
  githubToken: TOKEN,
  env: { GITHUB_REPOSITORY: 'acme/api', GITHUB_SHA: 'e'.repeat(40) },
  inputs: { 'project-id': PROJECT, 'api-key': KEY, 'poll-interval': '100ms', 'max-poll-interval': '300ms' }
})

/** Several runs, and GitHub's writes spaced a second apart: a test takes tens of seconds, more on a busy machine. */
const RUNS_MS = 180_000

async function world(github: FakeGitHubOptions) {
  const fake = await servers.github({ owner: 'acme', repo: 'api', ...github })
  const agent = await servers.agentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } }
  })
  return { github: fake, api: agent.api, server: agent.server }
}

/** An event of pull request #7 in acme/api. */
function pullEvent(action: string, more: { merged?: boolean } = {}) {
  return {
    action,
    number: 7,
    pull_request: {
      number: 7,
      title: 'Add a retry option to the client',
      html_url: 'https://github.com/acme/api/pull/7',
      user: { login: 'octocat', type: 'User' },
      body: 'Retries requests that fail with a 502.',
      head: { ref: 'feature/retry', sha: HEAD },
      base: { ref: 'main' },
      draft: false,
      merged: more.merged ?? false,
      state: action === 'closed' ? 'closed' : 'open',
      created_at: '2026-11-20T08:00:00Z',
      labels: []
    }
  }
}

/** A start recorded in a tracking comment's marker, `minutesAgo` minutes ago. */
function start(run: string, minutesAgo: number) {
  const line = 'an earlier prompt'
  const at = Date.now() - minutesAgo * 60_000
  return { kind: 'start' as const, run, attempt: 1, prompt: promptHash(line), line, project: PROJECT, at }
}

/** A comment on issue `issue` that carries this record, written by `user` just now. */
function recordBy(user: string, issue: number, state: TrackingState) {
  return { issue, user, body: `${markerOf(state)}\nA report.`, updatedAt: new Date().toISOString() }
}

/** The token is a GitHub App's installation token: GraphQL names it `acme-docs`, REST its comments' author `acme-docs[bot]`. */
const APP = { viewer: 'acme-docs', writesAs: 'acme-docs[bot]' }

describe("a user who registered the app's name", { timeout: RUNS_MS }, () => {
  it("cannot have mode: pair close a person's pull request with a copy of the marker", async () => {
    const forged = {
      job: 'job-9',
      requests: [{ ...start('1', 30), head: HEAD }],
      pr: 'https://github.com/acme/docs/pull/99'
    }
    const { github, server } = await world({
      ...APP,
      existing: [recordBy('acme-docs', 7, forged)],
      pulls: { 'acme/docs': [{ number: 99, state: 'open', labels: [] }] }
    })
    const result = await run(
      server,
      { mode: 'pair', prompt: 'Keep the docs in step.' },
      {
        eventName: 'pull_request',
        event: pullEvent('closed'),
        github
      }
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(github.calls.filter((call) => call.startsWith('PATCH'))).toEqual([])
    expect(github.pulls.get('acme/docs')?.[0]?.state).toBe('open')
  })

  it('cannot spend max-jobs-per-hour with a record of 100 starts', async () => {
    const forged = { job: 'job-9', requests: Array.from({ length: 100 }, (_, n) => start(String(n), 10)) }
    const { github, api, server } = await world({ ...APP, existing: [recordBy('acme-docs', 3, forged)] })
    const result = await run(
      server,
      { prompt: 'Document the change', 'max-jobs-per-hour': '1' },
      { eventName: 'workflow_dispatch', event: {}, github }
    )
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(api.posts).toHaveLength(1)
  })

  it('cannot move a batch past pull requests merged since with a forged cursor', async () => {
    const history = historyOf([11, 12, 13])
    const last = history.commits.at(-1)
    const cursor = { from: '', to: last?.sha ?? '', toDate: Date.parse(last?.date ?? ''), pulls: [11, 12, 13] }
    const forged = { job: 'job-9', requests: [start('1', 30)], ended: 'completed', batch: cursor }
    const { github, api, server } = await world({
      ...APP,
      history,
      issues: [{ number: 50, title: 'Docs digest', labels: ['docs digest'], state: 'open' }],
      existing: [recordBy('acme-docs', 50, forged)]
    })
    const result = await run(
      server,
      { mode: 'batch', prompt: 'Document what was merged.' },
      { eventName: 'schedule', event: { schedule: '0 6 * * *' }, github }
    )
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(result.outputs['batch-prs']).toBe('[11,12,13]')
    expect(api.posts).toHaveLength(1)
    expect(errorAnnotations(result)).toEqual([])
    expect(warningAnnotations(result)).toEqual([])
  })
})

/** An `issue_comment` on pull request #7 by `user`. */
function commentEvent(body: string, user: string) {
  return {
    action: 'created',
    issue: { number: 7, title: 'Add a retry option', body: '', pull_request: { url: 'x' }, user: { login: 'octocat' } },
    comment: { id: 9001, body, user: { login: user, type: 'User' } },
    sender: { login: user, type: 'User' }
  }
}

describe('mode: pair with command', { timeout: RUNS_MS }, () => {
  async function comment(body: string, user: string) {
    const { github, api, server } = await world({
      roles: { maintainer: 'write' },
      pulls: { 'acme/api': [{ number: 7, state: 'open', labels: [], headSha: HEAD }] },
      pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] }
    })
    const inputs = { mode: 'pair', command: '/docs', prompt: 'Keep the docs in step.' }
    const result = await run(server, inputs, { eventName: 'issue_comment', event: commentEvent(body, user), github })
    return { result, github, api }
  }

  it('makes no request at all, and no check run, for a comment that asks nothing', async () => {
    const { result, github, api } = await comment('Looks good to me.', 'maintainer')
    expect(result.outputs).toMatchObject({ outcome: 'skipped', 'skip-reason': 'no command' })
    expect(github.calls).toEqual([])
    expect(github.checkRuns).toEqual([])
    expect(api.posts).toEqual([])
  })

  it("puts the check run of an accepted request on the pull request's head commit", async () => {
    const { result, github, api } = await comment('/docs Mention the new retry option.', 'maintainer')
    expect(result.outputs, result.stdout).toMatchObject({ outcome: 'completed', 'action-taken': 'commanded' })
    expect(api.posts).toHaveLength(1)
    expect(github.checkRuns.map((check) => [check.headSha, check.conclusion])).toEqual([[HEAD, 'success']])
  })

  it("makes no check run for a stranger's refused request, which must not stand in for the pull request's check", async () => {
    const { result, github, api } = await comment('/docs Rewrite everything.', 'stranger')
    expect(result.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'refused' })
    expect(api.posts).toEqual([])
    expect(github.checkRuns).toEqual([])
  })
})

describe('a check run', { timeout: RUNS_MS }, () => {
  it('whose create answered 502 after GitHub made it is found and ended, not left in progress, nor made twice', async () => {
    let failed = false
    const { github, server } = await world({
      pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] },
      failAfterWriting: (call) => {
        if (failed || call !== 'POST /repos/acme/api/check-runs') return undefined
        failed = true
        return 502
      }
    })
    const result = await run(
      server,
      { prompt: 'Document the change', check: 'true' },
      { eventName: 'pull_request', event: pullEvent('opened'), github }
    )
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(github.checkRuns.map((check) => [check.headSha, check.history])).toEqual([
      [HEAD, ['in_progress', 'completed/success']]
    ])
    expect(warningAnnotations(result)).toEqual([])
  })
})

describe('a batch of more merged pull requests than one listing holds', { timeout: RUNS_MS }, () => {
  it('describes the oldest first and turns none into an anonymous commit the cursor passes', async () => {
    // 1,050 merged since batch-since, one an hour: GitHub lists the closed ones 100 a page, newest updated first.
    const numbers = Array.from({ length: 1050 }, (_, index) => 1000 + index)
    const { github, api, server } = await world({ history: historyOf(numbers) })
    const result = await run(
      server,
      { mode: 'batch', prompt: 'Document what was merged.', 'batch-since': '60d' },
      { eventName: 'schedule', event: { schedule: '0 6 * * *' }, github }
    )
    const oldest = numbers.slice(0, 20)
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(result.outputs['batch-prs']).toBe(JSON.stringify(oldest))
    expect(result.outputs['batch-to']).toBe(shaOf(1019))
    const prompt = String(api.posts[0]?.prompt)
    expect(prompt).toContain('Change number 1000')
    expect(prompt).not.toContain('Change number 1050')
    expect(prompt).not.toMatch(/pushed without a pull request/i)
  })
})

describe('max-jobs-per-hour in a busy repository', { timeout: RUNS_MS }, () => {
  const inputs = { prompt: 'Document the change', 'max-jobs-per-hour': '1' }
  const dispatch = { eventName: 'workflow_dispatch', event: {} }

  it('counts its own start past 1,000 comments by others this hour, and starts no second job', async () => {
    const now = new Date().toISOString()
    const others = Array.from({ length: 1000 }, (_, n) => ({
      issue: 3,
      user: 'mona',
      body: `Comment ${n}`,
      updatedAt: now
    }))
    const own = recordBy('github-actions[bot]', 4, { job: 'job-1', requests: [start('999', 10)] })
    const { github, api, server } = await world({ existing: [...others, own] })
    const result = await run(server, inputs, { ...dispatch, github })
    expect(result.outputs, result.stdout).toMatchObject({ outcome: 'rate-limited', 'job-id': '' })
    expect(api.posts).toEqual([])
    expect(warningAnnotations(result).join('\n')).toContain(
      'max-jobs-per-hour (1) is reached: this action started 1 job'
    )
  })

  it('starts nothing when the jobs cannot be counted, and says why and what to do', async () => {
    const { github, api, server } = await world({ failReads: { 'GET /repos/acme/api/issues/comments': 403 } })
    const result = await run(server, inputs, { ...dispatch, github })
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ outcome: 'error', 'job-id': '' })
    expect(api.posts).toEqual([])
    const said = errorAnnotations(result).join('\n')
    expect(said).toContain('max-jobs-per-hour (1): the jobs started in the last 1h could not be counted')
    expect(said).toContain('HTTP 403): give the workflow permissions: issues: read')
  })
})

describe('docs-paths', { timeout: RUNS_MS }, () => {
  it('counts where a renamed file came from: moving code and a workflow into docs/ is a violation', async () => {
    const moved = (from: string, to: string) => ({
      filename: to,
      previous_filename: from,
      status: 'renamed',
      additions: 0,
      deletions: 0
    })
    const files = [moved('src/billing.ts', 'docs/billing.ts'), moved('.github/workflows/ci.yml', 'docs/ci.yml')]
    const { github, server } = await world({
      pulls: { 'acme/docs': [{ number: 128, state: 'open', labels: [], files }] }
    })
    const result = await run(
      server,
      { prompt: 'Rewrite the docs', 'docs-paths': 'docs/**' },
      { eventName: 'workflow_dispatch', event: {}, github }
    )
    expect(result.outputs['guardrail'], result.stdout).toBe('violated')
    expect(result.exitCode).toBe(1)
    expect(warningAnnotations(result).join('\n')).toContain(
      "docs-paths: the agent's pull request touched files outside docs-paths: src/billing.ts, .github/workflows/ci.yml"
    )
  })
})
