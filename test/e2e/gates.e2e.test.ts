// Spend a job only where readers will see a change: the gates, decided before any request to the admin API, and the
// quotas (Mintlify's, and our own cap), which leave the step green when they leave no job to spend. The cap holds in a
// busy repository and against a forged record; loop prevention fails safe when GitHub will not say who docs-token is or
// the records cannot all be read; docs-paths counts where a renamed file came from.
import { describe, expect, it } from 'vitest'
import { sendJson } from '../../sim/admin-api.ts'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import type { SimulatedFile } from '../../sim/github-api.ts'
import { markerOf, promptHash } from '../../src/github/tracking-record.ts'
import { errorAnnotations, warningAnnotations } from '../support/expectations.ts'
import {
  APP,
  codeRepository,
  DOCS_TOKEN,
  HEAD,
  pullEvent,
  recordBy,
  RUNS_MS,
  start
} from './support/code-repository.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'

const KEY = 'mint_gates_secret_key_0123'
const TOKEN = 'ghs_gates_token_value_0123'
const PROJECT = 'docs'
const PR = 'https://github.com/acme/docs/pull/128'
const servers = loopback()
const run = bundleRunner({
  githubToken: TOKEN,
  inputs: { 'project-id': PROJECT, 'api-key': KEY, 'poll-interval': '100ms', 'max-poll-interval': '300ms' }
})

/** A merged pull request in the code repository, by `author`, with these labels. */
function mergedPullRequest(author: string, labels: string[] = [], type = 'User') {
  return {
    action: 'closed',
    number: 7,
    pull_request: {
      number: 7,
      title: 'Retry on 502',
      user: { login: author, type },
      labels: labels.map((name) => ({ name })),
      merged: true,
      state: 'closed',
      additions: 40,
      deletions: 2,
      base: { ref: 'main' },
      head: { ref: 'feature/retry' }
    }
  }
}

const file = (filename: string, additions = 10): SimulatedFile => ({
  filename,
  status: 'modified',
  additions,
  deletions: 0,
  patch: '@@ -1 +1 @@\n-a\n+b'
})

async function started(options: { files?: SimulatedFile[]; existing?: Parameters<typeof servers.github>[0] } = {}) {
  const github = await servers.github({
    pullFiles: { 7: options.files ?? [file('src/client.ts')] },
    ...options.existing
  })
  const { api, server } = await servers.agentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink: PR } }
  })
  return { github, api, server }
}

describe('gates', () => {
  it('skips a pull request that touches only tests: green, no request to the admin API, one line of summary, no comment', async () => {
    const { github, server } = await started({ files: [file('test/client.test.ts'), file('test/retry.test.ts')] })
    const result = await run(
      server,
      { prompt: 'Document the change', 'paths-ignore': 'test/**', comment: 'true' },
      { eventName: 'pull_request', event: mergedPullRequest('octocat'), github }
    )
    expect(result.exitCode).toBe(0)
    expect(server.requests).toEqual([])
    expect(result.outputs).toMatchObject({
      outcome: 'skipped',
      'skip-reason': 'no changed file of pull request #7 counts under paths-ignore (2 files changed)',
      'job-id': '',
      'action-taken': 'none'
    })
    expect(github.comments).toEqual([])
    expect(result.summary).toBe(
      '<h3>⏭️ No Mintlify agent job needed</h3>\n<p>Skipped: no changed file of pull request #7 counts under paths-ignore (2 files changed). No agent job was started.</p>\n'
    )
    expect(result.stdout).toContain('Nothing is sent to the agent (GitHub requests: 1).')
    expect(warningAnnotations(result)).toEqual([])
  })

  // A file that counts under paths, the last matching pattern deciding: rows of test/unit/inputs/gate-settings.test.ts.
  // One more as the bundle meets it; every gate's rule (a label, the size, ...) has its rows in
  // test/unit/decide/gates.test.ts.
  it.each([
    [
      "the Mintlify agent's pull request, whatever skip-authors says",
      mergedPullRequest('mintlify[bot]', [], 'Bot'),
      { 'skip-authors': '' },
      'is by mintlify[bot], the Mintlify agent (loop prevention)'
    ]
  ])('skips %s', async (_, event, inputs, reason) => {
    const { github, server } = await started()
    const result = await run(
      server,
      { prompt: 'Document the change', ...inputs },
      { eventName: 'pull_request', event, github }
    )
    expect(result.exitCode).toBe(0)
    expect(server.requests).toEqual([])
    expect(result.outputs['outcome']).toBe('skipped')
    expect(result.outputs['skip-reason']).toBe(`pull request #7 ${reason}`)
  })

  it('skips a pull request by the person whose own token is github-token (loop prevention)', async () => {
    const { github, server } = await started({ existing: { viewer: 'octocat' } })
    const result = await run(
      server,
      { prompt: 'Document the change' },
      { eventName: 'pull_request', event: mergedPullRequest('octocat'), github, githubToken: 'ghp_person_token_0123' }
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(server.requests).toEqual([])
    expect(result.outputs['skip-reason']).toBe("pull request #7 is by octocat, this workflow's token (loop prevention)")
  })

  it('reads nothing from GitHub for a plain prompt on a pull request by a person, starts the job, and gives the result output as JSON with every key, null where unknown', async () => {
    const { api, github, server } = await started()
    const result = await run(
      server,
      { prompt: 'Document the change' },
      { eventName: 'pull_request', event: mergedPullRequest('octocat'), github }
    )
    expect(result.outputs['outcome']).toBe('completed')
    expect(api.posts).toHaveLength(1)
    expect(github.calls).toEqual([])
    const parsed = JSON.parse(result.outputs['result'] ?? '') as Record<string, unknown>
    expect(Object.keys(parsed).sort()).toEqual(
      [
        'outcome',
        'status',
        'job-id',
        'prLink',
        'pr-number',
        'pr-repository',
        'branch',
        'preview-url',
        'preview-status',
        'skip-reason',
        'action-taken',
        'requested-by',
        'batch-size',
        'batch-prs',
        'guardrail',
        'grounding',
        'ungrounded',
        'duration-s',
        'jobs-started',
        'sweep'
      ].sort()
    )
    expect(parsed).toMatchObject({
      outcome: 'completed',
      status: 'completed',
      'job-id': 'job-1',
      prLink: PR,
      'pr-number': 128,
      'pr-repository': 'acme/docs',
      'preview-url': null,
      'skip-reason': null,
      'action-taken': 'started',
      'requested-by': null,
      'batch-prs': null,
      guardrail: null,
      'jobs-started': 1
    })
    expect(typeof parsed['duration-s']).toBe('number')
  })
})

describe('gates on a comment', () => {
  const pull = (author: string) => ({ ...mergedPullRequest(author).pull_request, merged: false, state: 'open' })
  /** A comment by `by` on pull request #7 by `author`: on its diff, or on its conversation. */
  const commented = (eventName: string, author: string, by: string) =>
    eventName === 'pull_request_review_comment'
      ? { action: 'created', pull_request: pull(author), comment: { id: 5, body: 'Looks right', user: { login: by } } }
      : {
          action: 'created',
          issue: { number: 7, title: 'Retry on 502', user: { login: author }, pull_request: { url: 'x' } },
          comment: { id: 5, body: 'Looks right', user: { login: by } }
        }

  // One as the bundle meets it; a review comment's author is read alike, a row of test/unit/decide/gates.test.ts.
  it.each(['issue_comment'])(
    "judge who commented on a %s: a person's comment on Renovate's pull request starts a job, Renovate's own is skipped",
    async (eventName) => {
      const { api, github, server } = await started()
      const inputs = { prompt: 'Document what the comment asks' }
      const person = await run(server, inputs, {
        eventName,
        event: commented(eventName, 'renovate[bot]', 'mona'),
        github
      })
      expect(person.outputs['outcome'], person.stdout).toBe('completed')
      const bot = await run(server, inputs, { eventName, event: commented(eventName, 'mona', 'renovate[bot]'), github })
      expect(bot.outputs).toMatchObject({
        outcome: 'skipped',
        'skip-reason': 'the comment on pull request #7 is by renovate[bot], in skip-authors'
      })
      expect(api.posts).toHaveLength(1)
    }
  )

  // One as the bundle meets it; the pull request's size counts too, a row of test/unit/decide/gates.test.ts.
  it.each([
    [{ 'paths-ignore': 'test/**' }, 'no changed file of pull request #7 counts under paths-ignore (2 files changed)']
  ])(
    "gate a comment on a pull request's conversation by the pull request's files and size too (%o)",
    async (gates, reason) => {
      const { github, server } = await started({ files: [file('test/client.test.ts'), file('test/retry.test.ts')] })
      const event = commented('issue_comment', 'octocat', 'mona')
      const result = await run(
        server,
        { prompt: 'Document the change', ...gates },
        { eventName: 'issue_comment', event, github }
      )
      expect(result.outputs, result.stdout).toMatchObject({ outcome: 'skipped', 'skip-reason': reason })
      expect(server.requests).toEqual([])
    }
  )
})

describe('listings GitHub cuts short', () => {
  it('lets a pull request through paths-ignore when its one counted file lies past the files GitHub listed at once', async () => {
    const files = [...Array.from({ length: 400 }, (_, n) => file(`test/case-${n}.test.ts`)), file('src/client.ts')]
    const { github, api, server } = await started({ files })
    const event = mergedPullRequest('octocat')
    const withCount = { ...event, pull_request: { ...event.pull_request, changed_files: files.length } }
    const result = await run(
      server,
      { prompt: 'Document the change', 'paths-ignore': 'test/**' },
      { eventName: 'pull_request', event: withCount, github }
    )
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'skip-reason': '' })
    expect(api.posts).toHaveLength(1)
    expect(result.stdout).toContain(
      'GitHub listed only 300 of the files of pull request #7: paths and paths-ignore let it through, as a file left out may count.'
    )
  })

  it("finds a file outside docs-paths past the 300th of the docs pull request, and says unchecked past GitHub's 3,000", async () => {
    const docs = Array.from({ length: 350 }, (_, n) => file(`docs/page-${n}.mdx`))
    const withWorkflow = [...docs, file('.github/workflows/ci.yml')]
    const { github, server } = await started({
      existing: {
        repo: 'api',
        pulls: { 'acme/docs': [{ number: 128, state: 'open', labels: [], files: withWorkflow }] }
      }
    })
    const inputs = { prompt: 'Rewrite the docs', 'docs-paths': 'docs/**' }
    const violated = await run(server, inputs, { eventName: 'workflow_dispatch', event: {}, github })
    expect(violated.outputs['guardrail'], violated.stdout).toBe('violated')
    expect(violated.exitCode).toBe(1)

    const many = Array.from({ length: 3001 }, (_, n) => file(`docs/page-${n}.mdx`))
    const big = await started({
      existing: { repo: 'api', pulls: { 'acme/docs': [{ number: 128, state: 'open', labels: [], files: many }] } }
    })
    const unchecked = await run(big.server, inputs, { eventName: 'workflow_dispatch', event: {}, github: big.github })
    expect(unchecked.outputs['guardrail'], unchecked.stdout).toBe('')
    expect(warningAnnotations(unchecked).join('\n')).toContain(
      `docs-paths was not checked: ${PR} changes more files than GitHub lists (3,000), so the others cannot be checked.`
    )
  })
})

describe('quotas', () => {
  it('sends a start again once a 429 has waited its Retry-After, and completes', async () => {
    const api = simulateAgentApi({
      projectId: PROJECT,
      apiKey: KEY,
      run: { activePolls: 1, final: { status: 'completed', prLink: PR } }
    })
    let refused = false
    const limited = await servers.serve((req, res, index) => {
      if (req.method === 'POST' && !refused) {
        refused = true
        return sendJson(res, 429, { error: 'Rate limit exceeded' }, { 'retry-after': '2' })
      }
      return api.respond(req, res, index)
    })
    const result = await run(limited, { prompt: 'Document it' })
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'completed', prLink: PR, 'action-taken': 'started' })
    expect(api.posts).toHaveLength(1)
    expect(result.stdout).toContain('The API surely did not act on it, so it is sent again in 2s.')
  })

  it('ends rate-limited before any request when max-jobs-per-hour is reached by the jobs it recorded', async () => {
    const recent = markerOf({
      job: 'job-older',
      requests: [
        {
          kind: 'start',
          run: '999',
          attempt: 1,
          prompt: promptHash('an earlier prompt'),
          line: 'an earlier prompt',
          project: PROJECT,
          at: Date.now() - 10 * 60_000
        }
      ]
    })
    const { github, server } = await started({
      existing: {
        existing: [
          {
            issue: 3,
            body: `${recent}\nan earlier report`,
            user: 'github-actions[bot]',
            updatedAt: new Date().toISOString()
          }
        ]
      }
    })
    const result = await run(
      server,
      { prompt: 'Document the change', 'max-jobs-per-hour': '1' },
      { eventName: 'pull_request', event: mergedPullRequest('octocat'), github }
    )
    expect(result.exitCode).toBe(0)
    expect(server.requests).toEqual([])
    expect(result.outputs).toMatchObject({ outcome: 'rate-limited', 'job-id': '' })
    expect(errorAnnotations(result)).toEqual([])
    expect(warningAnnotations(result)[0]).toContain(
      'max-jobs-per-hour (1) is reached: this action started 1 job of project "docs"'
    )
  })
})

describe('max-jobs-per-hour within one workflow run', () => {
  it("counts a job another job of the same run started (a matrix), but not this step's own earlier attempt", async () => {
    const record = (step: string) =>
      markerOf({
        job: `job-${step}`,
        requests: [
          {
            kind: 'start',
            run: '4242',
            attempt: 1,
            step,
            prompt: promptHash('Document the change'),
            line: 'Document the change',
            project: PROJECT,
            at: Date.now() - 60_000
          }
        ]
      })
    const comment = (issue: number, step: string) => ({
      issue,
      body: `${record(step)}\na report`,
      user: 'github-actions[bot]',
      updatedAt: new Date().toISOString()
    })
    const inputs = { prompt: 'Document the change', 'max-jobs-per-hour': '1' }
    const on = { eventName: 'workflow_dispatch', event: {}, env: { GITHUB_JOB: 'docs-b', GITHUB_ACTION: 'agent' } }
    const other = await started({ existing: { existing: [comment(3, 'docs-a/agent')] } })
    const matrix = await run(other.server, inputs, { ...on, github: other.github })
    expect(matrix.outputs['outcome'], matrix.stdout).toBe('rate-limited')
    expect(other.server.requests).toEqual([])

    const own = await started({ existing: { existing: [comment(3, 'docs-b/agent')] } })
    const rerun = await run(own.server, inputs, { ...on, github: own.github })
    expect(rerun.outputs['outcome'], rerun.stdout).not.toBe('rate-limited')
  })
})

describe("a user who registered the app's name", { timeout: RUNS_MS }, () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })

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
})

describe('max-jobs-per-hour in a busy repository', { timeout: RUNS_MS }, () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })
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
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })
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

describe('loop prevention when GitHub will not say who docs-token is', () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })
  it("starts no job for the docs app's own pull request when the viewer query fails for docs-token", async () => {
    const { github, api, server } = await world({
      viewers: { [DOCS_TOKEN]: 'acme-docs' },
      intercept: (call, req, res) => {
        if (call !== 'POST /graphql' || !(req.headers.authorization ?? '').endsWith(DOCS_TOKEN)) return false
        sendJson(res, 502, { message: 'Bad Gateway' })
        return true
      }
    })
    const result = await run(
      server,
      { prompt: 'Keep the docs in step.', 'docs-token': DOCS_TOKEN },
      { eventName: 'pull_request', event: pullEvent('opened', 'acme-docs[bot]'), github }
    )
    expect(api.posts, result.stdout).toEqual([])
    expect(result.outputs['outcome']).not.toBe('completed')
  })
})

describe('mode: pair on the docs pull request a job of this action opened in the same repository', () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })
  const OWN_DOCS = 'https://github.com/acme/api/pull/128'
  const record = recordBy('github-actions[bot]', 7, {
    job: 'job-1',
    requests: [{ ...start('1', 60), head: HEAD }],
    ended: 'completed',
    pr: OWN_DOCS
  })
  const inputs = { mode: 'pair', prompt: 'Keep the docs in step.' }
  const event = { eventName: 'pull_request', event: pullEvent('synchronize', 'octocat', 128) }

  it('starts no job on it when more than 1,000 comments were written in the repository since it opened', async () => {
    const now = new Date().toISOString()
    const others = Array.from({ length: 1000 }, (_, n) => ({
      issue: 3,
      user: 'mona',
      body: `Comment ${n}`,
      updatedAt: now
    }))
    const { github, api, server } = await world({ existing: [...others, record] })
    const result = await run(server, inputs, { ...event, github })
    expect(api.posts, result.stdout).toEqual([])
  })

  it('starts no job on it when GitHub fails to list the records', async () => {
    const { github, api, server } = await world({
      existing: [record],
      failReads: { 'GET /repos/acme/api/issues/comments': 502 }
    })
    const result = await run(server, inputs, { ...event, github })
    expect(api.posts, result.stdout).toEqual([])
  })

  it('starts no job on it when nothing gets in the way (the control)', async () => {
    const { github, api, server } = await world({ existing: [record] })
    const result = await run(server, inputs, { ...event, github })
    expect(result.outputs['skip-reason'], result.stdout).toBe(
      'pull request #128 is a docs pull request a job of this action opened (loop prevention)'
    )
    expect(api.posts).toEqual([])
  })
})
