// mode: batch against the simulated admin API and GitHub: one job for everything merged since the last batch whose job
// completed, with the cursor kept on the digest issue.
import { describe, expect, it } from 'vitest'
import { type AgentApiOptions, simulateAgentApi } from '../../sim/agent-api.ts'
import type { FakeGitHubOptions } from '../../sim/github-api.ts'
import type { SimulatedHistory } from '../../sim/github-history.ts'
import { readMarker } from '../../src/github/tracking-record.ts'
import { warningAnnotations } from '../support/expectations.ts'
import { historyOf, shaOf } from './support/batch-history.ts'
import { loopback } from './support/loopback.ts'
import { type BundleRun, bundleRunner } from './support/run-bundle.ts'
import { type SteppedClock, steppedClock } from './support/triggers.ts'

const KEY = 'mint_batch_secret_key_0123'
const TOKEN = 'ghs_batch_token_value_0123'
const PROJECT = 'docs'
const PROMPT = 'Update the docs for everything merged below, if readers would notice it.'
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

async function world(
  history: SimulatedHistory,
  github: Partial<FakeGitHubOptions> = {},
  api: Partial<AgentApiOptions> = {},
  clock?: SteppedClock
) {
  const fake = await servers.github({ owner: 'acme', repo: 'api', history, ...github })
  const agent = simulateAgentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } },
    ...api
  })
  // On `clock`, each read of a job moves the step's clock past its timeout.
  const server = await servers.serve(
    clock ? clock.jumpingAt(agent.respond, (req) => req.method === 'GET') : agent.respond
  )
  const once = (inputs: Record<string, string> = {}, options: BundleRun = {}) =>
    run(server, inputs, { eventName: 'schedule', event: { schedule: '0 6 * * *' }, github: fake, ...options })
  return { github: fake, api: agent, server, once }
}

const prompts = (api: { posts: { prompt: unknown }[] }) => api.posts.map((post) => String(post.prompt))
const digestRecords = (github: { comments: { repo: string; issue: number; body: string }[] }) =>
  github.comments.filter((comment) => comment.repo === 'acme/api').map((comment) => readMarker(comment.body))

describe('mode: batch', () => {
  it('sends five merged pull requests as one job, in order, within context-limit, and records the batch on a digest issue it opens', async () => {
    const { github, api, once } = await world(historyOf([11, 12, 13, 14, 15]))
    const result = await once({ 'context-limit': '3000' })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(api.posts).toHaveLength(1)
    const [prompt = ''] = prompts(api)
    expect(prompt.startsWith(`${PROMPT}\n\n## An instruction from the workflow`)).toBe(true)
    const order = [11, 12, 13, 14, 15].map((number) => prompt.indexOf(`### Pull request #${number} in`))
    expect(order.every((at) => at > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(prompt).toContain('This batch covers 5 pull requests, oldest first: #11, #12, #13, #14, #15')
    expect(prompt.slice(prompt.indexOf('## What changed')).length).toBeLessThanOrEqual(3000)
    expect(result.outputs).toMatchObject({
      outcome: 'completed',
      'batch-size': '5',
      'batch-prs': '[11,12,13,14,15]',
      'batch-from': '',
      'batch-to': shaOf(15)
    })
    expect(JSON.parse(result.outputs['result'] ?? '{}')).toMatchObject({
      'batch-size': 5,
      'batch-prs': [11, 12, 13, 14, 15]
    })
    expect(github.issues).toMatchObject([{ title: 'Docs digest', labels: ['docs digest'], state: 'open' }])
    const [record] = digestRecords(github)
    expect(record).toMatchObject({
      job: 'job-1',
      ended: 'completed',
      pr: DOCS_PR,
      batch: { to: shaOf(15), pulls: [11, 12, 13, 14, 15] }
    })
    expect(github.comments[0]?.issue).toBe(github.issues[0]?.number)
  })

  it('skips the next run when nothing new was merged, with no request to the admin API', async () => {
    const { server, once } = await world(historyOf([11, 12]))
    await once()
    const requests = server.requests.length
    const again = await once()
    expect(again.exitCode).toBe(0)
    expect(again.stdout).toMatch(/Batch: 0 pull requests merged into main since the last batch \([0-9a-f]{7}\)/)
    expect(again.outputs).toMatchObject({ outcome: 'skipped', 'skip-reason': 'nothing new' })
    expect(server.requests).toHaveLength(requests)
  })

  it('takes a failed batch again, whole, on the next run', async () => {
    const history = historyOf([11, 12, 13, 14, 15])
    const { api, once } = await world(
      history,
      {},
      {
        runs: [
          { activePolls: 1, final: { status: 'failed' } },
          { activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } }
        ]
      }
    )
    const failed = await once({ 'fail-on': '' })
    expect(failed.outputs['outcome']).toBe('failed')
    const retried = await once()
    expect(retried.outputs).toMatchObject({ outcome: 'completed', 'batch-prs': '[11,12,13,14,15]' })
    expect(api.posts).toHaveLength(2)
    expect(prompts(api)[1]).toContain('This batch covers 5 pull requests')
  })

  it('waits for a batch whose run timed out, instead of starting a second job, and moves the cursor when it completes', async () => {
    const clock = steppedClock()
    const { github, api, once } = await world(
      historyOf([11, 12, 13]),
      {},
      { run: { activePolls: Infinity, final: { status: 'completed', prLink: DOCS_PR } } },
      clock
    )
    const timedOut = await once({ ...clock.inputs, 'fail-on': '' }, clock.with())
    expect(timedOut.outputs['outcome']).toBe('timeout')
    // The job is still running when the next run begins, and completes while it waits.
    const job = api.jobs.get('job-1')
    if (job) Object.assign(job, { run: { activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } }, polls: 0 })
    const waited = await once()
    expect(waited.stdout).toContain('The batch before this one is still running (agent job "job-1")')
    expect(waited.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1', 'batch-prs': '[11,12,13]' })
    expect(api.posts).toHaveLength(1)
    expect(digestRecords(github)[0]).toMatchObject({ ended: 'completed' })
    const after = await once()
    expect(after.outputs['skip-reason']).toBe('nothing new')
  })

  it('ends as the batch whose run timed out and whose job completed since: its outcome, prLink and notes, with no second job', async () => {
    const { github, api, once } = await world(
      historyOf([11, 12, 13]),
      {},
      { run: { activeForMs: 600_000, final: { status: 'completed', prLink: DOCS_PR } } }
    )
    const timedOut = await once({ timeout: '1s', 'fail-on': '', 'batch-notify': 'true' })
    expect(timedOut.outputs['outcome']).toBe('timeout')
    // The job completes between the two runs.
    const job = api.jobs.get('job-1')
    if (job === undefined) throw new Error('no job was started')
    job.run = { activePolls: 0, final: { status: 'completed', prLink: DOCS_PR } }
    const next = await once({ 'batch-notify': 'true' })
    expect(next.exitCode, next.stdout).toBe(0)
    expect(next.outputs).toMatchObject({
      outcome: 'completed',
      prLink: DOCS_PR,
      'job-id': 'job-1',
      'batch-prs': '[11,12,13]'
    })
    expect(next.stdout).toContain('this run ends as that batch')
    expect(api.posts).toHaveLength(1)
    const notes = github.comments.filter((comment) => [11, 12, 13].includes(comment.issue)).map((note) => note.body)
    expect(notes).toEqual(Array(3).fill(`Documented in ${DOCS_PR}, by a docs batch of 3 pull requests.`))
    expect(digestRecords(github)[0]).toMatchObject({ ended: 'completed', pr: DOCS_PR })
    const after = await once()
    expect(after.outputs['skip-reason']).toBe('nothing new')
  })

  it('covers batch-limit pull requests now and the rest next time, saying how many wait', async () => {
    const { api, once } = await world(historyOf([11, 12, 13, 14, 15]))
    const first = await once({ 'batch-limit': '2' })
    expect(first.outputs).toMatchObject({ 'batch-prs': '[11,12]', 'batch-to': shaOf(12) })
    expect(first.stdout).toContain('3 more merged pull requests wait for the next batch.')
    const second = await once({ 'batch-limit': '3' })
    expect(second.outputs).toMatchObject({ 'batch-prs': '[13,14,15]', 'batch-from': shaOf(12) })
    expect(prompts(api)[1]).not.toContain('### Pull request #12 in')
  })

  it.each([
    ['its compare says diverged', false],
    ['GitHub collected it, and its compare answers 404', true]
  ])(
    "falls back to the cursor's date when the branch's history was rewritten (the cursor's commit: %s), and says so",
    async (_, collected) => {
      const history = historyOf([11, 12])
      const { api, once } = await world(history)
      await once()
      // A force-push rewrites the branch: the cursor's commit is gone, and two new pull requests came after its date.
      history.commits = historyOf([21, 22]).commits.map((commit) => ({ ...commit, date: new Date().toISOString() }))
      history.merged.push(
        ...historyOf([21, 22]).merged.map((pull) => ({ ...pull, mergedAt: new Date().toISOString() }))
      )
      if (collected) history.collected = [shaOf(11), shaOf(12)]
      const rewritten = await once()
      expect(rewritten.exitCode, rewritten.stdout).toBe(0)
      expect(warningAnnotations(rewritten)[0]).toContain(
        `The commit the last batch ended at (${shaOf(12).slice(0, 7)}) is no longer in the history of main (it was rewritten): this batch starts at that commit's date`
      )
      expect(rewritten.outputs['batch-prs']).toBe('[21,22]')
      expect(api.posts).toHaveLength(2)
      // The batch goes on from its new cursor.
      const next = await once()
      expect(next.outputs).toMatchObject({ outcome: 'skipped', 'skip-reason': 'nothing new' })
    }
  )

  it('leaves a pull request whose files cannot be read for the next run, and those after it', async () => {
    const { api, once } = await world(historyOf([11, 12, 13]), {
      failReads: { 'GET /repos/acme/api/pulls/12/files': 502 }
    })
    const result = await once()
    expect(warningAnnotations(result)).toContain(
      'The files of pull request #12 could not be read from GitHub: it waits for the next run, and so do the pull requests merged after it.'
    )
    expect(result.outputs).toMatchObject({ 'batch-prs': '[11]', 'batch-to': shaOf(11) })
    expect(prompts(api)[0]).not.toContain('#13')
  })

  it('counts the commits pushed without a pull request as one entry', async () => {
    const { api, once } = await world(historyOf([11], ['Fix a typo in the changelog', 'Bump the version']))
    await once()
    const [prompt = ''] = prompts(api)
    expect(prompt).toContain('### Commits pushed to `main` without a pull request (2)')
    expect(prompt).toContain('`Fix a typo in the changelog` by `hubot`')
  })

  it('lists the pull requests the gates leave out, sends the others, and notes each covered one with batch-notify', async () => {
    const history = historyOf([11, 12, 13])
    const bumped = history.merged.find((pull) => pull.number === 12)
    if (bumped) Object.assign(bumped, { user: 'dependabot[bot]' })
    const { github, api, once } = await world(history)
    const result = await once({ 'batch-notify': 'true' })
    const [prompt = ''] = prompts(api)
    expect(prompt).toContain('This batch covers 2 pull requests, oldest first: #11, #13')
    expect(prompt).toContain('Left out by the gates, as nothing a reader of the docs would see: #12.')
    expect(result.outputs['batch-prs']).toBe('[11,13]')
    expect(result.stdout).toMatch(
      /Batch: 3 pull requests merged into main since [\d-]+ [\d:]+ UTC \(batch-since; no batch before this one\); this batch describes 2, 1 left out by the gates, and 0 commits pushed without a pull request, up to [0-9a-f]{7} \(GitHub requests: \d+\)\./
    )
    const notes = github.comments.filter((comment) => comment.issue === 11 || comment.issue === 13)
    expect(notes.map((note) => note.body)).toEqual([
      `Documented in ${DOCS_PR}, by a docs batch of 2 pull requests.`,
      `Documented in ${DOCS_PR}, by a docs batch of 2 pull requests.`
    ])
    expect(result.summary).toContain('skipped: #12 (pull request #12 is by dependabot&#91;bot&#93;, in skip-authors)')
    const digest = github.comments.find((comment) => comment.repo === 'acme/api' && readMarker(comment.body)?.batch)
    expect(digest?.body).toContain('**Batch**: #11, #13 (skipped by the gates: #12); the commits after the start of')
  })
})
