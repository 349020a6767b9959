// mode: batch against the simulated admin API and GitHub: the digest issue is found by the action's own records, not
// only by its label, and a window longer than one batch reads is covered in turn. No pull request is described twice,
// and none is skipped: not by a forged cursor, nor when more were merged than one listing holds.
import { describe, expect, it } from 'vitest'
import type { HistoryCommit, SimulatedHistory } from '../../sim/github-history.ts'
import { markerOf } from '../../src/github/tracking-record.ts'
import { errorAnnotations, warningAnnotations } from '../support/expectations.ts'
import { historyOf, merge, mergedPull, shaOf } from './support/batch-history.ts'
import { APP, codeRepository, recordBy, RUNS_MS, start } from './support/code-repository.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'

const KEY = 'mint_batch_records_key_0123'
const TOKEN = 'ghs_batch_records_token_01'
const PROJECT = 'docs'
const PROMPT = 'Document what was merged.'
const DOCS_PR = 'https://github.com/acme/docs/pull/300'

const servers = loopback()
const run = bundleRunner({
  githubToken: TOKEN,
  env: { GITHUB_REPOSITORY: 'acme/api' },
  inputs: {
    'project-id': PROJECT,
    'api-key': KEY,
    mode: 'batch',
    prompt: PROMPT,
    'poll-interval': '100ms',
    'max-poll-interval': '300ms'
  }
})

async function world(history: SimulatedHistory, github: Parameters<typeof servers.github>[0] = {}) {
  const fake = await servers.github({ owner: 'acme', repo: 'api', history, ...github })
  const agent = await servers.agentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } }
  })
  const once = () => run(agent.server, {}, { eventName: 'schedule', event: { schedule: '0 6 * * *' }, github: fake })
  return { github: fake, api: agent.api, once }
}

describe('mode: batch finds its records', () => {
  it('sends nothing while its record cannot be written (a locked digest issue), and says why', async () => {
    const history = historyOf([11, 12])
    let locked = false
    const { github, api, once } = await world(history, {
      intercept: (call, _req, res) => {
        if (!locked || !/^(POST|PATCH) \/repos\/acme\/api\/issues\/(\d+\/comments|comments\/\d+)$/.test(call))
          return false
        res.writeHead(403, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ message: 'Unable to create comment because issue is locked.' }))
        return true
      }
    })
    await once()
    locked = true
    merge(history, 14)
    const second = await once()
    const third = await once()
    expect(api.posts).toHaveLength(1)
    for (const refused of [second, third]) {
      expect(refused.exitCode).toBe(1)
      const said = [...warningAnnotations(refused), ...errorAnnotations(refused)].join('\n')
      expect(said).toContain('Nothing was sent to the agent: the request could not be recorded on GitHub first')
      expect(said).toContain(`#${github.issues[0]?.number} is locked`)
    }
  })

  it('sends nothing when its digest issue is gone (its comments answer 404), and says what to do', async () => {
    const history = historyOf([11, 12])
    let gone = false
    const { api, once } = await world(history, {
      intercept: (call, _req, res) => {
        if (!gone || !/^GET \/repos\/acme\/api\/issues\/\d+\/comments$/.test(call)) return false
        res.writeHead(404, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ message: 'Not Found' }))
        return true
      }
    })
    await once()
    merge(history, 13)
    gone = true
    const second = await once()
    expect(api.posts).toHaveLength(1)
    expect(second.outputs['outcome']).toBe('error')
    expect(errorAnnotations(second).join('\n')).toContain(
      'is gone (transferred or deleted), or the token cannot see it'
    )
  })

  it("is not put off its batch by another project's batch recorded on the shared digest issue meanwhile", async () => {
    const history = historyOf([11, 12])
    let meanwhile = false
    const { github, api, once } = await world(history, {
      intercept: (call) => {
        // While this run reads the history, another project's run records its batch on the digest issue.
        if (!meanwhile || call !== 'GET /repos/acme/api/pulls') return false
        meanwhile = false
        const at = new Date().toISOString()
        const record = markerOf({
          job: 'job-b',
          requests: [{ kind: 'start', run: '77', attempt: 1, prompt: 'abc', line: PROMPT, project: 'docs-b' }],
          batch: { from: shaOf(12), to: shaOf(13), toDate: Date.now(), pulls: [13] }
        })
        const issue = github.issues[0]?.number ?? 0
        github.comments.push({
          id: 5000,
          repo: 'acme/api',
          issue,
          body: record,
          user: 'github-actions[bot]',
          createdAt: at,
          updatedAt: at
        })
        return false
      }
    })
    await once()
    merge(history, 13)
    meanwhile = true
    const second = await once()
    expect(meanwhile).toBe(false)
    expect(second.outputs, second.stdout).toMatchObject({ outcome: 'completed', 'batch-prs': '[13]' })
    expect(api.posts).toHaveLength(2)
  })

  it('goes on from a digest issue someone closed: the next batch covers only what was merged since', async () => {
    const history = historyOf([11, 12, 13])
    const { github, api, once } = await world(history)
    const first = await once()
    expect(first.outputs['batch-prs'], first.stdout).toBe('[11,12,13]')
    const [digest] = github.issues
    for (const issue of github.issues) issue.state = 'closed'
    const second = await once()
    expect(second.outputs, second.stdout).toMatchObject({ outcome: 'skipped', 'skip-reason': 'nothing new' })
    expect(second.stdout).toContain(`The digest issue #${digest?.number} is closed: it keeps the batches' records`)
    merge(history, 14)
    const third = await once()
    expect(third.outputs).toMatchObject({ 'batch-prs': '[14]', 'batch-from': shaOf(13) })
    expect(github.issues).toHaveLength(1)
    expect(api.posts).toHaveLength(2)
  })

  it('labels its digest issue again when someone removed the label, and says so', async () => {
    const { github, api, once } = await world(historyOf([11, 12]))
    await once()
    const [digest] = github.issues
    for (const issue of github.issues) issue.labels = []
    const second = await once()
    expect(second.outputs, second.stdout).toMatchObject({ outcome: 'skipped', 'skip-reason': 'nothing new' })
    expect(warningAnnotations(second)).toContain(
      `Issue #${digest?.number} keeps the batches' records but was no longer labelled "docs digest": labelled again, and used as the digest issue.`
    )
    expect(github.issues).toMatchObject([{ number: digest?.number, labels: ['docs digest'] }])
    expect(api.posts).toHaveLength(1)
  })

  it('keeps its digest issue when someone labels an older issue "docs digest"', async () => {
    const old = { number: 1, title: 'An old question', labels: [] as string[], state: 'open' as const }
    const { github, api, once } = await world(historyOf([11, 12]), { issues: [old] })
    await once()
    const digest = github.issues.find((issue) => issue.number !== 1)
    github.issues.find((issue) => issue.number === 1)?.labels.push('docs digest')
    const second = await once()
    expect(second.outputs, second.stdout).toMatchObject({ outcome: 'skipped', 'skip-reason': 'nothing new' })
    expect(second.stdout).toContain(`Digest issue: #${digest?.number} (labelled "docs digest").`)
    expect(second.stdout).toContain('Also labelled "docs digest", with no batch record of this action: #1; left alone.')
    expect(api.posts).toHaveLength(1)
  })

  it("takes no issue for the digest issue by a stranger's record on it", async () => {
    const forged = markerOf({
      job: 'job-evil',
      requests: [{ kind: 'start', run: '1', attempt: 1, prompt: 'x', line: 'x', project: PROJECT, at: Date.now() }],
      ended: 'completed',
      batch: { from: '', to: shaOf(12), toDate: Date.now(), pulls: [11, 12] }
    })
    const { github, api, once } = await world(historyOf([11, 12]), {
      issues: [
        { number: 1, title: 'Docs digest', labels: ['docs digest'], state: 'closed' },
        { number: 2, title: 'Docs digest', labels: ['docs digest'], state: 'open' }
      ],
      existing: [{ issue: 1, user: 'mallory', body: `${forged}\nlooks like ours` }]
    })
    const result = await once()
    expect(result.outputs, result.stdout).toMatchObject({ 'batch-prs': '[11,12]' })
    expect(result.stdout).toContain('Digest issue: #2')
    expect(api.posts).toHaveLength(1)
    expect(github.comments.filter((comment) => comment.issue === 2)).toHaveLength(1)
  })
})

describe('mode: batch over a long window', () => {
  it('covers more than a thousand commits in turn, oldest first, each merged pull request once', async () => {
    const start = Date.now() - 5 * 86_400_000
    const at = (i: number) => new Date(start + i * 60_000).toISOString()
    const commits: HistoryCommit[] = [
      { sha: shaOf(1), message: 'Merge pull request #1', author: 'octocat', date: at(0) }
    ]
    for (let i = 1; i <= 1100; i++) {
      commits.push({ sha: shaOf(100_000 + i), message: `Direct commit ${i}`, author: 'hubot', date: at(i) })
    }
    commits.push({ sha: shaOf(2), message: 'Merge pull request #2', author: 'octocat', date: at(1101) })
    const history: SimulatedHistory = {
      branch: 'main',
      commits,
      merged: [mergedPull(1, at(0)), mergedPull(2, at(1101))]
    }
    const { api, once } = await world(history)
    const first = await once()
    expect(first.outputs, first.stdout).toMatchObject({ 'batch-prs': '[1]', 'batch-to': shaOf(100_000 + 1000) })
    expect(first.stdout).toContain(
      `More commits came after the start of this batch than one batch reads: it reads the oldest 1,001 commits, up to ${shaOf(101_000).slice(0, 7)}, and the next run goes on from where it ends.`
    )
    const second = await once()
    expect(second.outputs, second.stdout).toMatchObject({ 'batch-prs': '[2]', 'batch-from': shaOf(101_000) })
    const third = await once()
    expect(third.outputs['skip-reason']).toBe('nothing new')
    expect(api.posts).toHaveLength(2)
  })
})

describe("a user who registered the app's name", { timeout: RUNS_MS }, () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })

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

describe('a batch of more merged pull requests than one listing holds', { timeout: RUNS_MS }, () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })
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
