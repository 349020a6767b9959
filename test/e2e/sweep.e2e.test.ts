// mode: sweep against the simulated admin API and GitHub: the docs repository's open agent pull requests, tied to the
// action's jobs by its records in the workflow's repository, reported, and closed, merged or followed up only as
// sweep-actions allows.
import { describe, expect, it } from 'vitest'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import { agentDocsPulls, agentRecords, type FakeGitHub, type FakeGitHubOptions } from '../../sim/github-api.ts'
import { readMarker } from '../../src/github/tracking-record.ts'
import { loopback } from './support/loopback.ts'
import { type BundleRun, bundleRunner } from './support/run-bundle.ts'

const KEY = 'mint_sweep_secret_key_0123'
const TOKEN = 'ghs_sweep_token_value_0123'
const DOCS_TOKEN = 'ghs_sweep_docs_token_0123'
const PROJECT = 'docs'
const VIEWER = 'github-actions[bot]'
const AGENT = 'mintlify[bot]'
const DAY = 86_400_000
const NOW = Date.now()
const ago = (days: number): string => new Date(NOW - days * DAY).toISOString()

const servers = loopback()
const run = bundleRunner({
  githubToken: TOKEN,
  env: { GITHUB_REPOSITORY: 'acme/api' },
  inputs: {
    'project-id': PROJECT,
    'api-key': KEY,
    mode: 'sweep',
    'docs-repository': 'acme/docs',
    'docs-token': DOCS_TOKEN
  }
})

/** A docs pull request the agent opened `days` ago, last updated a day ago. */
const docsPull = agentDocsPulls(NOW)

const record = agentRecords(NOW, PROJECT)
const HEAD = { head: 'e'.repeat(40) }

/**
 * One of each: orphaned (#1), superseded (#2 by #3), approved (#4), conflicted (#5), stale (#6), stale but a person
 * committed (#7), opened by the agent under another identity with no record (#8), a forged record (#9).
 */
const WORLD: FakeGitHubOptions = {
  owner: 'acme',
  repo: 'api',
  viewer: VIEWER,
  pulls: {
    'acme/api': [
      { number: 41, state: 'closed', merged: false, labels: [] },
      { number: 42, state: 'open', labels: [] },
      { number: 44, state: 'closed', merged: false, labels: [] }
    ],
    'acme/docs': [
      docsPull(1, 20),
      docsPull(2, 19),
      docsPull(3, 18),
      docsPull(4, 17, { reviews: [{ user: 'mona', state: 'APPROVED' }], checks: { runs: ['completed/success'] } }),
      docsPull(5, 16, { mergeable: false }),
      docsPull(6, 25, { updatedAt: ago(20) }),
      docsPull(7, 24, {
        updatedAt: ago(20),
        commits: [
          { sha: 'c'.repeat(40), author: AGENT, email: 'agent@mintlify.com' },
          { sha: 'd'.repeat(40), author: 'mona', email: 'mona@example.com' }
        ]
      }),
      docsPull(8, 23, { user: 'mintlify-docs[bot]', updatedAt: ago(20) }),
      docsPull(9, 9)
    ]
  },
  existing: [
    record(41, 1, HEAD),
    record(42, 2, { ...HEAD, startedDays: 30 }),
    record(42, 3, { ...HEAD, startedDays: 20 }),
    record(43, 4, { ...HEAD, source: 'merged' }),
    record(50, 5, HEAD),
    record(51, 6, HEAD),
    record(52, 7, HEAD),
    // Forged: the marker, by anyone but the action's identity, on a code pull request closed unmerged.
    record(44, 9, { ...HEAD, user: 'mallory' }),
    record(44, 9, { ...HEAD, user: 'github-actions' })
  ]
}

async function world(github: Partial<FakeGitHubOptions> = {}) {
  const fake = await servers.github({ ...WORLD, ...github })
  const api = simulateAgentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/5' } },
    existing: [{ jobId: 'job-5', activePolls: 1, final: { status: 'completed' } }]
  })
  const server = await servers.serve(api.respond)
  const once = (inputs: Record<string, string> = {}, options: BundleRun = {}) =>
    run(server, inputs, { eventName: 'schedule', event: { schedule: '0 6 * * 1' }, github: fake, ...options })
  return { github: fake, api, once }
}

const writesOf = (github: FakeGitHub, from = 0) =>
  github.calls.slice(from).filter((call) => !call.startsWith('GET') && call !== 'POST /graphql')
const docsComments = (github: FakeGitHub, number: number) =>
  github.comments.filter((comment) => comment.repo === 'acme/docs' && comment.issue === number)
const stateOf = (github: FakeGitHub, number: number) =>
  github.pulls.get('acme/docs')?.find((pull) => pull.number === number)
const sweepOf = (outputs: Record<string, string>) =>
  JSON.parse(outputs['sweep'] ?? '{}') as { open: number; actions: { number: number; result: string }[] }

describe('mode: sweep', () => {
  it('in report mode lists every open agent pull request with what would be done, and writes nothing', async () => {
    const { github, api, once } = await world()
    const result = await once()
    expect(result.exitCode, result.stdout).toBe(0)
    expect(writesOf(github)).toEqual([])
    expect(api.posts).toEqual([])
    expect(result.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'swept' })
    // A sweep starts no job by design: the step's last line says what it did, not that it skipped.
    expect(result.stdout).toContain('Swept acme/docs: 8 open agent pull requests; 0 closed, 0 merged, 0 followed up.')
    expect(result.stdout).not.toContain('Skipped')
    const swept = sweepOf(result.outputs)
    // #8, by another identity with no record, is not the action's to report.
    expect(swept.open).toBe(8)
    expect(swept.actions).toEqual([])
    for (const [number, state] of [
      [1, 'orphaned: its code pull request https://github.com/acme/api/pull/41 was closed without merging'],
      [2, 'superseded: a newer agent pull request, https://github.com/acme/docs/pull/3'],
      [4, 'approved: approved, mergeable, and its checks pass'],
      [5, 'conflicted: its branch conflicts with its base branch'],
      [6, 'stale: no activity for 20 days'],
      [7, 'open: no activity for 20 days, but a person worked on it: never closed as stale'],
      [9, 'untied: opened by the Mintlify agent, but no record']
    ] as const) {
      const row = result.summary
        .split('\n')
        .find((line) => line.includes(`>#${number}<`) || line.startsWith(`| #${number} `))
      expect(row).toContain(state)
    }
    expect(result.summary).toContain('would close (close-orphaned is not in sweep-actions)')
    expect(JSON.parse(result.outputs['result'] ?? '{}')).toMatchObject({ 'action-taken': 'swept', sweep: { open: 8 } })
    expect(result.summary).not.toContain('Docs for change 8')
  })

  it('with every action: closes orphaned, superseded and stale ones with a link, merges the approved one, follows up the conflicted one once across two runs, and leaves alone what a person touched, what no record ties, and a forged record', async () => {
    const { github, api, once } = await world()
    const actions = 'close-orphaned, close-superseded, close-stale, merge-approved, update-conflicted'
    const first = await once({ 'sweep-actions': actions })
    expect(first.exitCode, first.stdout).toBe(0)
    expect(sweepOf(first.outputs).actions.map((done) => [done.number, done.result])).toEqual([
      [6, 'closed'],
      [1, 'closed'],
      [2, 'closed'],
      [4, 'merged'],
      [5, 'asked']
    ])
    expect(docsComments(github, 1)[0]?.body).toContain('The code pull request https://github.com/acme/api/pull/41,')
    expect(docsComments(github, 2)[0]?.body).toContain('Superseded by https://github.com/acme/docs/pull/3')
    expect(docsComments(github, 6)[0]?.body).toContain('No activity for 20 days, so this docs pull request is closed.')
    expect(stateOf(github, 4)).toMatchObject({ state: 'closed', merged: true })
    for (const left of [3, 5, 7, 8, 9]) {
      expect(stateOf(github, left)?.state).toBe('open')
      expect(docsComments(github, left)).toEqual([])
    }
    // The follow-up is recorded on the job's own tracking comment before it is sent.
    expect(api.posts.map((post) => post.what)).toEqual(['follow-up job-5'])
    const tracked = github.comments.find((comment) => comment.repo === 'acme/api' && comment.issue === 50)
    expect(readMarker(tracked?.body)?.requests.map((request) => request.kind)).toEqual(['start', 'follow-up'])
    const second = await once({ 'sweep-actions': actions })
    expect(second.exitCode, second.stdout).toBe(0)
    expect(api.posts).toHaveLength(1)
    expect(sweepOf(second.outputs).actions).toEqual([])
  })

  it('takes at most sweep-limit actions, oldest first', async () => {
    const pulls = [docsPull(1, 20), docsPull(2, 40), docsPull(3, 30)].map((pull) => ({ ...pull, updatedAt: ago(15) }))
    const { github, once } = await world({
      pulls: { 'acme/docs': pulls },
      existing: [record(11, 1, HEAD), record(12, 2, { ...HEAD, startedDays: 40 }), record(13, 3, HEAD)]
    })
    const result = await once({ 'sweep-actions': 'close-stale', 'sweep-limit': '2' })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(sweepOf(result.outputs).actions.map((done) => done.number)).toEqual([2, 3])
    expect(stateOf(github, 1)?.state).toBe('open')
    expect(result.summary).toContain('would close (past sweep-limit: the next sweep)')
  })

  it('reads a merge GitHub answered with a 502 back, and neither merges nor comments again', async () => {
    const approved = docsPull(4, 17, { reviews: [{ user: 'mona', state: 'APPROVED' }] })
    const { github, once } = await world({
      pulls: { 'acme/docs': [approved] },
      existing: [record(43, 4, { ...HEAD, source: 'merged' })],
      failAfterWriting: (call) => (call === 'PUT /repos/acme/docs/pulls/4/merge' ? 502 : undefined)
    })
    const result = await once({ 'sweep-actions': 'merge-approved' })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(writesOf(github)).toEqual(['PUT /repos/acme/docs/pulls/4/merge'])
    expect(stateOf(github, 4)).toMatchObject({ merged: true })
    expect(docsComments(github, 4)).toEqual([])
    expect(sweepOf(result.outputs).actions).toMatchObject([{ number: 4, result: 'merged' }])
  })

  it('refuses another repository without docs-token, and any event but a schedule or a dispatch, before any request', async () => {
    const { github, once } = await world()
    const noToken = await once({ 'docs-token': '' })
    expect(noToken.exitCode).toBe(1)
    expect(noToken.stdout).toContain('Input "docs-token" is required to sweep acme/docs')
    const pushed = await once({}, { eventName: 'push', event: {} })
    expect(pushed.exitCode).toBe(1)
    expect(pushed.stdout).toContain('"mode: sweep" looks over every open agent pull request at once')
    expect(github.calls).toEqual([])
  })
})
