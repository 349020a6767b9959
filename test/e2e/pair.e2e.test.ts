// mode: pair, a code pull request's life against the simulated admin API and GitHub: one docs pull request kept in
// step with it from open to merge, the check run on its head commit, and docs-paths held to; a copy of its marker by a
// user who registered the app's name closes nothing.
import { describe, expect, it } from 'vitest'
import type { AgentApiOptions } from '../../sim/agent-api.ts'
import type { FakeGitHubOptions, SimulatedFile } from '../../sim/github-api.ts'
import { readMarker } from '../../src/github/tracking-record.ts'
import { errorAnnotations, warningAnnotations } from '../support/expectations.ts'
import { APP, codeRepository, HEAD, recordBy, RUNS_MS, start } from './support/code-repository.ts'
import { loopback } from './support/loopback.ts'
import { readActionMetadata } from '../../sim/run-action.ts'
import { bundleRunner, type RunOptions } from './support/run-bundle.ts'
import { once } from './support/triggers.ts'

const KEY = 'mint_pair_secret_key_0123'
const TOKEN = 'ghs_pair_token_value_0123'
const PROJECT = 'docs'
const DOCS_PR = 'https://github.com/acme/docs/pull/128'
const SOURCE = 'https://github.com/acme/api/pull/7'
const PROMPT = 'Keep the docs in step with this pull request.'
const sha = (char: string): string => char.repeat(40)
const [A, B, C, D] = ['a', 'b', 'c', 'd'].map(sha) as [string, string, string, string]

const servers = loopback()
const run = bundleRunner({
  githubToken: TOKEN,
  env: { GITHUB_REPOSITORY: 'acme/api' },
  inputs: {
    'project-id': PROJECT,
    'api-key': KEY,
    mode: 'pair',
    prompt: PROMPT,
    'poll-interval': '100ms',
    'max-poll-interval': '300ms'
  }
})

/** An event of pull request #7 in acme/api. */
function pullEvent(
  action: string,
  head: string,
  more: { draft?: boolean; merged?: boolean; user?: string; number?: number; url?: string } = {}
) {
  const number = more.number ?? 7
  return {
    action,
    number,
    pull_request: {
      number,
      title: 'Add a retry option to the client',
      html_url: more.url ?? SOURCE,
      user: { login: more.user ?? 'octocat', type: (more.user ?? '').endsWith('[bot]') ? 'Bot' : 'User' },
      body: 'Retries requests that fail with a 502.',
      head: { ref: 'feature/retry', sha: head },
      base: { ref: 'main' },
      draft: more.draft ?? false,
      merged: more.merged ?? false,
      state: action === 'closed' ? 'closed' : 'open',
      created_at: '2026-11-20T08:00:00Z',
      labels: []
    }
  }
}

const file = (filename: string): SimulatedFile => ({
  filename,
  status: 'modified',
  additions: 3,
  deletions: 1,
  patch: `@@ -1 +1 @@\n-old ${filename}\n+new ${filename}`
})
const commit = (sha: string, message: string) => ({ sha, message, author: 'octocat' })

const GITHUB: FakeGitHubOptions = {
  owner: 'acme',
  repo: 'api',
  pullFiles: { 7: [file('src/client.ts'), file('src/retry.ts')] },
  pulls: { 'acme/docs': [{ number: 128, state: 'open', labels: [], files: [file('docs/retries.mdx')] }] },
  compares: {
    [`${A}...${B}`]: { status: 'ahead', commits: [commit(B, 'Retry on 503 too')], files: [file('src/retry.ts')] },
    [`${B}...${C}`]: { status: 'ahead', commits: [commit(C, 'Add a jitter option')], files: [file('src/jitter.ts')] },
    [`${C}...${D}`]: { status: 'diverged', commits: [commit(D, 'Rewritten history')], files: [file('src/x.ts')] },
    [`${C}...${B}`]: { status: 'behind', commits: [], files: [] }
  }
}

async function world(github: FakeGitHubOptions = GITHUB, api: Partial<AgentApiOptions> = {}) {
  const fake = await servers.github(github)
  const agent = await servers.agentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } },
    ...api
  })
  const on = (
    event: unknown,
    inputs: Record<string, string> = {},
    env: Record<string, string> = {},
    onSpawn?: RunOptions['onSpawn']
  ) =>
    run(agent.server, inputs, { eventName: 'pull_request', event, github: fake, env, ...(onSpawn ? { onSpawn } : {}) })
  return { github: fake, api: agent.api, server: agent.server, on }
}

const prompts = (api: { posts: { what: string; prompt: unknown }[] }) =>
  api.posts.map((post) => ({ what: post.what, prompt: String(post.prompt) }))

describe('mode: pair', () => {
  it('starts one job when the pull request opens, records its head, keeps a check on it (in progress, then success), and passes docs-paths kept to', async () => {
    const { github, api, on } = await world()
    const result = await on(pullEvent('opened', A), { 'docs-paths': 'docs/**' })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({
      outcome: 'completed',
      'action-taken': 'started',
      prLink: DOCS_PR,
      guardrail: 'passed'
    })
    expect(JSON.parse(result.outputs['result'] ?? '{}')).toMatchObject({ guardrail: 'passed' })
    const [start] = prompts(api)
    expect(start?.what).toBe('create')
    expect(start?.prompt).toContain(`${PROMPT}\n\n## An instruction from the workflow`)
    expect(start?.prompt).toContain('### Pull request #7 in `acme/api`, open')
    expect(start?.prompt).toContain('Diff of `src/client.ts`')
    const record = readMarker(github.comments[0]?.body)
    expect(record).toMatchObject({ job: 'job-1', pr: DOCS_PR, ended: 'completed' })
    expect(record?.requests.map((request) => request.head)).toEqual([A])
    expect(github.checkRuns).toHaveLength(1)
    expect(github.checkRuns[0]).toMatchObject({ name: 'Mintlify docs', headSha: A, conclusion: 'success' })
    expect(github.checkRuns[0]?.history).toEqual(['in_progress', 'completed/success'])
    expect(github.checkRuns[0]?.summary).toContain(DOCS_PR)
    expect(result.outputs['check-url']).toMatch(/^https:\/\/github\.com\/acme\/api\/runs\/\d+$/)
  })

  it('sends each push as a follow-up with only its own commits, never one twice, nor one older than described, and the whole pull request after a force-push', async () => {
    const { api, on } = await world()
    await on(pullEvent('opened', A))
    const first = await on(pullEvent('synchronize', B))
    const second = await on(pullEvent('synchronize', C))
    expect(first.outputs['action-taken']).toBe('followed-up')
    expect(second.outputs['action-taken']).toBe('followed-up')
    const [, push1, push2] = prompts(api)
    expect(push1?.what).toBe('follow-up job-1')
    expect(push1?.prompt).toContain('its new commits since the last prompt')
    expect(push1?.prompt).toContain('Retry on 503 too')
    expect(push1?.prompt).not.toContain('Add a jitter option')
    expect(push1?.prompt).not.toContain('src/client.ts')
    expect(push2?.prompt).toContain('Add a jitter option')
    expect(push2?.prompt).not.toContain('Retry on 503 too')
    // The same push again (a re-delivered event) sends nothing.
    const again = await on(pullEvent('synchronize', C))
    expect(again.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'none' })
    // Nor does a push whose run comes after a newer head was described (two pushes close together).
    const late = await on(pullEvent('synchronize', B))
    expect(late.outputs).toMatchObject({
      outcome: 'skipped',
      'action-taken': 'none',
      'skip-reason': "a newer head of pull request #7 than this run's (bbbbbbb) is already described"
    })
    expect(api.posts).toHaveLength(3)
    // A force-push: the head described is no longer in the pull request, so the whole of it is described again.
    const forced = await on(pullEvent('synchronize', D))
    expect(forced.stdout).toContain('is no longer in pull request #7')
    expect(forced.stdout).toContain('(a force-push): the whole pull request is described again.')
    expect(prompts(api)[3]?.prompt).toContain('### Pull request #7 in `acme/api`, open')
  })

  it("hands a re-run of a push run the follow-up's result its earlier attempt recorded, as for a start, and sends nothing", async () => {
    const { api, on } = await world()
    await on(pullEvent('opened', A), {}, { GITHUB_RUN_ID: '100' })
    const pushed = await on(pullEvent('synchronize', B), {}, { GITHUB_RUN_ID: '101' })
    expect(pushed.outputs).toMatchObject({ outcome: 'completed', 'action-taken': 'followed-up', prLink: DOCS_PR })
    // Re-run within the minute a follow-up may take to show, with a timeout shorter than that minute.
    const rerun = await on(
      pullEvent('synchronize', B),
      { timeout: '30s' },
      { GITHUB_RUN_ID: '101', GITHUB_RUN_ATTEMPT: '2' }
    )
    expect(rerun.exitCode, rerun.stdout).toBe(0)
    expect(rerun.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1', prLink: DOCS_PR })
    expect(rerun.stdout).toContain('which completed with a pull request: taking its result')
    expect(prompts(api).map((post) => post.what)).toEqual(['create', 'follow-up job-1'])
  })

  it('tells the docs pull request when the code pull request is merged, with merged-label, and starts no job', async () => {
    const { github, api, on } = await world()
    await on(pullEvent('opened', A))
    const merged = await on(pullEvent('closed', A, { merged: true }), { 'merged-label': 'code merged' })
    expect(merged.exitCode, merged.stdout).toBe(0)
    expect(merged.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'merged', 'job-id': '' })
    expect(api.posts).toHaveLength(1)
    const note = github.comments.find((comment) => comment.repo === 'acme/docs' && comment.issue === 128)
    expect(note?.body).toBe(`The code pull request ${SOURCE}, which this docs pull request documents, was merged.`)
    expect(github.pulls.get('acme/docs')?.[0]?.labels).toEqual(['code merged'])
    const tracking = github.comments.find((comment) => comment.repo === 'acme/api')
    expect(tracking?.body).toContain('🔀 **Code pull request merged**: its docs pull request')
    expect(readMarker(tracking?.body)?.source).toBe('merged')
  })

  it('with merge-approved, merges the approved, mergeable and green docs pull request when its code pull request merges', async () => {
    // Opened by the agent, after its job started; approved by a member.
    const approved = {
      user: 'mintlify[bot]',
      createdAt: new Date().toISOString(),
      reviews: [{ user: 'mona', state: 'APPROVED' as const }],
      checks: { runs: ['completed/success'] }
    }
    const docs = GITHUB.pulls?.['acme/docs']?.map((pull) => ({ ...pull, ...approved })) ?? []
    const { github, on } = await world({ ...GITHUB, pulls: { 'acme/docs': docs } })
    await on(pullEvent('opened', A))
    const merged = await on(pullEvent('closed', A, { merged: true }), { 'merge-approved': 'true' })
    expect(merged.exitCode, merged.stdout).toBe(0)
    expect(merged.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'merged' })
    expect(github.pulls.get('acme/docs')?.[0]).toMatchObject({ state: 'closed', merged: true })
    expect(github.comments.filter((comment) => comment.repo === 'acme/docs')).toEqual([])
    expect(merged.stdout).toContain('approved, mergeable and green: merged too')
  })

  it('closes the docs pull request, with a comment that links the code pull request, when that is closed unmerged; reopens it with the code pull request, and follows up there', async () => {
    const { github, api, on } = await world()
    await on(pullEvent('opened', A))
    const closed = await on(pullEvent('closed', A))
    expect(closed.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'closed' })
    expect(github.pulls.get('acme/docs')?.[0]?.state).toBe('closed')
    const note = github.comments.find((comment) => comment.repo === 'acme/docs')
    expect(note?.body).toContain(`The code pull request ${SOURCE}`)
    expect(note?.body).toContain('was closed without merging, so this docs pull request is closed too.')
    const reopened = await on(pullEvent('reopened', A))
    expect(reopened.exitCode, reopened.stdout).toBe(0)
    expect(reopened.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'reopened' })
    expect(github.pulls.get('acme/docs')?.[0]?.state).toBe('open')
    const notes = github.comments.filter((comment) => comment.repo === 'acme/docs').map((comment) => comment.body)
    expect(notes.at(-1)).toContain(`The code pull request ${SOURCE}`)
    expect(notes.at(-1)).toContain('was reopened, so this docs pull request is reopened too.')
    const tracking = github.comments.find((comment) => comment.repo === 'acme/api')
    expect(tracking?.body).toContain('🔁 **Code pull request reopened**: its docs pull request')
    expect(readMarker(tracking?.body)?.source).toBeUndefined()
    const pushed = await on(pullEvent('synchronize', B))
    expect(pushed.outputs).toMatchObject({ 'action-taken': 'followed-up', prLink: DOCS_PR })
    expect(prompts(api).map((post) => post.what)).toEqual(['create', 'follow-up job-1'])
    expect(prompts(api)[1]?.prompt).toContain('Retry on 503 too')
    const closedAgain = await on(pullEvent('closed', B))
    expect(closedAgain.outputs['action-taken']).toBe('closed')
    expect(github.pulls.get('acme/docs')?.[0]?.state).toBe('closed')
  })

  it('starts a new job when the docs pull request it closed cannot be reopened (its branch was deleted)', async () => {
    const docs = { number: 128, state: 'open' as const, labels: [], files: [file('docs/a.mdx')], branchDeleted: true }
    const { github, api, on } = await world({ ...GITHUB, pulls: { 'acme/docs': [docs] } })
    await on(pullEvent('opened', A))
    await on(pullEvent('closed', A))
    const pushed = await on(pullEvent('synchronize', B))
    expect(pushed.exitCode, pushed.stdout).toBe(0)
    expect(pushed.outputs).toMatchObject({ outcome: 'completed', 'action-taken': 'started' })
    expect(prompts(api).map((post) => post.what)).toEqual(['create', 'create'])
    expect(warningAnnotations(pushed).join('\n')).toContain(
      `GitHub would not reopen ${DOCS_PR} (its branch is gone): a new job is started for the whole of pull request #7.`
    )
    expect(github.pulls.get('acme/docs')?.[0]?.state).toBe('closed')
  })

  // A docs pull request someone merged is left alike: a row of test/unit/modes/pair/pair.test.ts.
  it('leaves a docs pull request someone closed as it is: no note, no close, never reopened', async () => {
    const docs = { number: 128, state: 'open' as const, labels: [], files: [file('docs/a.mdx')] }
    const { github, api, on } = await world({ ...GITHUB, pulls: { 'acme/docs': [docs] } })
    await on(pullEvent('opened', A))
    const pull = github.pulls.get('acme/docs')?.[0]
    if (pull === undefined) throw new Error('no docs pull request')
    pull.state = 'closed'
    const closed = await on(pullEvent('closed', A))
    expect(closed.outputs['skip-reason']).toBe(
      `pull request #7 was closed: its docs pull request ${DOCS_PR} was closed already, and is left as it is`
    )
    expect(github.comments.filter((comment) => comment.repo === 'acme/docs')).toEqual([])
    const reopened = await on(pullEvent('reopened', A))
    expect(reopened.outputs['action-taken']).toBe('none')
    expect(github.pulls.get('acme/docs')?.[0]?.state).toBe('closed')
    expect(prompts(api).map((post) => post.what)).toEqual(['create'])
    // Someone reopens the docs pull request: it is live again, and the next close of the code closes it too.
    pull.state = 'open'
    const closedAgain = await on(pullEvent('closed', A))
    expect(closedAgain.outputs['skip-reason']).toBe(
      `pull request #7 was closed: its docs pull request ${DOCS_PR} was closed`
    )
    expect(github.pulls.get('acme/docs')?.[0]?.state).toBe('closed')
    expect(github.comments.filter((comment) => comment.repo === 'acme/docs')).toHaveLength(1)
  })

  it('follows up the same job, never a second, when the docs repository cannot be reached to close or reopen', async () => {
    const { github, api, on } = await world({ ...GITHUB, pulls: {} })
    await on(pullEvent('opened', A))
    const closed = await on(pullEvent('closed', A))
    expect(warningAnnotations(closed).join('\n')).toContain('Could not close pull request #128 in acme/docs (HTTP 404)')
    const pushed = await on(pullEvent('synchronize', B))
    expect(pushed.outputs).toMatchObject({ 'action-taken': 'followed-up' })
    expect(prompts(api).map((post) => post.what)).toEqual(['create', 'follow-up job-1'])
    expect(readMarker(github.comments.find((comment) => comment.repo === 'acme/api')?.body)?.source).toBeUndefined()
  })

  it("starts a job that supersedes the earlier docs pull request when the job refuses a follow-up, closes that one, and says so on the refused job's comment", async () => {
    const docs = [128, 129].map((number) => ({
      number,
      state: 'open' as const,
      labels: [],
      files: [file('docs/a.mdx')]
    }))
    const { github, api, on } = await world(
      { ...GITHUB, pulls: { 'acme/docs': docs } },
      {
        runs: [
          { activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } },
          { activePolls: 1, final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/129' } }
        ],
        refuseFollowUps: { status: 400, error: 'This job is completed and takes no more messages' }
      }
    )
    await on(pullEvent('opened', A))
    const result = await on(pullEvent('synchronize', B))
    expect(result.exitCode, result.stdout).toBe(0)
    expect(warningAnnotations(result)[0]).toContain('took no follow-up')
    expect(result.outputs).toMatchObject({ 'action-taken': 'started', prLink: 'https://github.com/acme/docs/pull/129' })
    expect(prompts(api).map((post) => post.what)).toEqual(['create', 'follow-up job-1', 'create'])
    expect(prompts(api)[2]?.prompt).toContain(`This job supersedes the docs pull request ${DOCS_PR}`)
    expect(github.pulls.get('acme/docs')?.map((pull) => pull.state)).toEqual(['closed', 'open'])
    const note = github.comments.find((comment) => comment.repo === 'acme/docs' && comment.issue === 128)
    expect(note?.body).toContain('Superseded by https://github.com/acme/docs/pull/129')
    const records = github.comments
      .filter((comment) => comment.repo === 'acme/api')
      .map((comment) => readMarker(comment.body))
    expect(records.map((record) => record?.supersedes)).toEqual([undefined, DOCS_PR])
    expect(records[1]?.requests.map((request) => request.head)).toEqual([B])
    // The refused job's comment no longer says the follow-up is on its way: it points to the new job's comment.
    const [refused, next] = github.comments.filter((comment) => comment.repo === 'acme/api')
    expect(refused?.body).not.toContain('Sending the prompt')
    expect(refused?.body).toContain('↪️ **Follow-up refused: a new job takes over**: this job took no follow-up (`')
    expect(refused?.body).toContain(`<a href="https://github.com/acme/api/issues/7#issuecomment-${next?.id ?? ''}">`)
    expect(records[0]).toMatchObject({ job: 'job-1', ended: 'completed', requests: [{ kind: 'start', head: A }] })
  })

  // One skip as the bundle meets it, and its check; each of pair's skips is a row of test/unit/modes/pair/.
  it.each([
    [
      "the Mintlify agent's own pull request",
      pullEvent('opened', A, { user: 'mintlify[bot]' }),
      'the Mintlify agent (loop prevention)'
    ]
  ])('sends nothing for %s, and the check says neutral', async (_, event, reason) => {
    const { github, api, on } = await world()
    const result = await on(event)
    expect(result.exitCode).toBe(0)
    expect(api.posts).toEqual([])
    expect(result.outputs['outcome']).toBe('skipped')
    expect(result.outputs['skip-reason']).toContain(reason)
    expect(github.checkRuns.map((check) => check.history)).toEqual([['completed/neutral']])
  })

  it('sends nothing for a pull request opened by the app behind docs-token (loop prevention)', async () => {
    const DOCS_TOKEN = 'ghs_docs_app_token_0123'
    const { api, on } = await world({ ...GITHUB, viewers: { [DOCS_TOKEN]: 'acme-docs' } })
    const result = await on(pullEvent('opened', A, { user: 'acme-docs[bot]' }), { 'docs-token': DOCS_TOKEN })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs['skip-reason']).toBe(
      'pull request #7 is by acme-docs[bot], the identity of docs-token (loop prevention)'
    )
    expect(api.posts).toEqual([])
  })

  // A person's own docs-token, on their pull request, lets it through: rows of test/unit/decide/gates.test.ts.
  // A docs pull request a job of this action opened in the same repository: gates.e2e.test.ts, as the bundle meets it.
  it('fails the step and the check when the docs pull request touches a file outside docs-paths', async () => {
    const github: FakeGitHubOptions = {
      ...GITHUB,
      pulls: {
        'acme/docs': [
          { number: 128, state: 'open', labels: [], files: [file('docs/a.mdx'), file('.github/workflows/ci.yml')] }
        ]
      }
    }
    const { github: fake, on } = await world(github)
    const result = await on(pullEvent('opened', A), { 'docs-paths': 'docs/**\n*.md' })
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ outcome: 'completed', guardrail: 'violated' })
    expect(errorAnnotations(result)[0]).toContain(
      'Its pull request touched files outside docs-paths: .github/workflows/ci.yml.'
    )
    expect(fake.checkRuns[0]?.conclusion).toBe('failure')
    expect(fake.comments[0]?.body).toContain('Files outside docs-paths')
    expect(fake.pulls.get('acme/docs')?.[0]?.state).toBe('open')
  })

  it("still leaves every output and a summary when the runner's SIGTERM comes while GitHub hangs on closing the docs pull request", async () => {
    const closing = 'PATCH /repos/acme/docs/pulls/128'
    const { github, on } = await world({ ...GITHUB, intercept: (call) => call === closing })
    await on(pullEvent('opened', A))
    // No request deadline would end the hanging close: only the step's own schedule after a SIGTERM does (proven on a
    // simulated clock in the unit tests; no SIGKILL here, whose timing a busy machine would decide).
    const cut = await on(pullEvent('closed', A), { 'request-timeout': '1h' }, {}, (child) => {
      once(
        () => github.calls.includes(closing),
        () => child.kill('SIGTERM')
      )
    })
    expect(cut.signal, cut.stdout).toBeNull()
    expect(cut.exitCode).toBe(1)
    const { outputs } = await readActionMetadata()
    expect(Object.keys(cut.outputs).sort()).toEqual(Object.keys(outputs).sort())
    expect(cut.outputs['outcome']).toBe('cancelled')
    expect(cut.summary).toContain('⏹️ Run cancelled')
  })

  it('is an error, before any request, on an event that is not about a pull request', async () => {
    const { github, server } = await world()
    const event = { ref: 'refs/heads/main', before: A, after: B }
    const result = await run(server, {}, { eventName: 'push', event, github })
    expect(result.exitCode).toBe(1)
    expect(server.requests).toEqual([])
    expect(github.calls).toEqual([])
    expect(errorAnnotations(result)[0]).toContain(
      '"mode: pair" keeps a docs pull request in step with a code pull request, so it runs on pull_request or pull_request_target events; this run\'s event is "push".'
    )
    expect(result.outputs['outcome']).toBe('error')
  })
})

describe("a user who registered the app's name", { timeout: RUNS_MS }, () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })

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
        event: pullEvent('closed', HEAD),
        github
      }
    )
    expect(result.exitCode, result.stdout).toBe(0)
    expect(github.calls.filter((call) => call.startsWith('PATCH'))).toEqual([])
    expect(github.pulls.get('acme/docs')?.[0]?.state).toBe('open')
  })
})
