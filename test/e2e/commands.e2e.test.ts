// Requests for docs from a comment or a label, against the simulated admin API and GitHub: only people with
// command-permission may ask; a comment that asks nothing costs nothing. In mode: pair, the check run of an accepted
// request sits on the pull request's head commit, and a refused one makes none.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AgentApiOptions } from '../../sim/agent-api.ts'
import type { FakeGitHubOptions } from '../../sim/github-api.ts'
import { ROOT } from '../../sim/run-action.ts'
import { markerOf, readMarker } from '../../src/github/tracking-record.ts'
import { errorAnnotations, expectKeyNeverShown, warningAnnotations } from '../support/expectations.ts'
import { codeRepository, HEAD, RUNS_MS } from './support/code-repository.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'

const KEY = 'mint_commands_secret_key_0123'
const TOKEN = 'ghs_commands_token_value_0123'
const PROJECT = 'docs'
const DOCS_PR = 'https://github.com/acme/docs/pull/300'

const servers = loopback()
const run = bundleRunner({
  githubToken: TOKEN,
  env: { GITHUB_REPOSITORY: 'acme/api' },
  inputs: {
    'project-id': PROJECT,
    'api-key': KEY,
    command: '/docs',
    'poll-interval': '100ms',
    'max-poll-interval': '300ms'
  }
})

const RECORDED = {
  issue: 42,
  repo: 'acme/api',
  user: 'github-actions[bot]',
  body: `${markerOf({
    job: 'job-7',
    requests: [
      { kind: 'start', run: '1', attempt: 1, prompt: 'abc', line: 'Document the retries option', project: PROJECT }
    ]
  })}\n✅ **Mintlify agent job completed**`
}

/** An `issue_comment` on pull request #42 by `user`. */
function commentEvent(body: string, user = 'maintainer', action = 'created', type = 'User') {
  return {
    action,
    issue: {
      number: 42,
      title: 'Add a retries option',
      body: 'Adds `retries`.',
      pull_request: { url: 'x' },
      user: { login: 'octocat' }
    },
    comment: { id: 9001, body, user: { login: user, type } },
    sender: { login: user, type }
  }
}

async function world(github: Partial<FakeGitHubOptions> = {}, api: Partial<AgentApiOptions> = {}) {
  const fake = await servers.github({
    owner: 'acme',
    repo: 'api',
    roles: { maintainer: 'write', visitor: 'read', triager: 'triage' },
    ...github
  })
  const agent = await servers.agentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } },
    existing: [{ jobId: 'job-7', activePolls: 0, final: { status: 'completed', prLink: DOCS_PR } }],
    ...api
  })
  const comment = (body: string, user?: string, more: Record<string, string> = {}, action?: string) =>
    run(agent.server, more, { eventName: 'issue_comment', event: commentEvent(body, user, action), github: fake })
  return { github: fake, api: agent.api, server: agent.server, comment }
}

describe('comment commands', () => {
  it('follows up the job recorded on the pull request with the words of a writer, with eyes, then a rocket', async () => {
    const { github, api, comment } = await world({ existing: [RECORDED] })
    const result = await comment('/docs update the auth page\nand the quickstart')
    expect(result.exitCode, result.stdout).toBe(0)
    expect(api.posts.map((post) => post.what)).toEqual(['follow-up job-7'])
    expect(String(api.posts[0]?.prompt)).toMatch(/^update the auth page\nand the quickstart/)
    expect(github.reactions.map((reaction) => reaction.content)).toEqual(['eyes', 'rocket'])
    expect(github.reactions[0]).toMatchObject({ commentId: 9001, review: false })
    expect(result.outputs).toMatchObject({
      outcome: 'completed',
      'action-taken': 'commanded',
      'requested-by': 'maintainer',
      'job-id': 'job-7'
    })
    expect(JSON.parse(result.outputs['result'] ?? '{}')).toMatchObject({
      'action-taken': 'commanded',
      'requested-by': 'maintainer'
    })
    expect(result.summary).toContain('<th>Requested by</th><td>maintainer</td>')
    expectKeyNeverShown(result, KEY)
  })

  it('starts a job when none is recorded, with the pull request as material, not the comment again nor a note that it may change nothing', async () => {
    const { github, api, comment } = await world()
    const result = await comment('/docs document the new flag', 'maintainer', { context: 'auto' })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(api.posts.map((post) => post.what)).toEqual(['create'])
    const prompt = String(api.posts[0]?.prompt)
    expect(prompt.startsWith('document the new flag\n\n')).toBe(true)
    expect(prompt).toContain('### Pull request #42 in `acme/api`')
    expect(prompt.match(/document the new flag/g)).toHaveLength(1)
    expect(prompt).not.toContain('make no change and open no pull request')
    const records = github.comments.map((stored) => readMarker(stored.body)).filter((state) => state?.job === 'job-1')
    expect(records).toHaveLength(1)
    // A person's request is recorded as asked, so that a sweep tells its docs pull request's origin.
    expect(records[0]?.requests.map((request) => request.asked)).toEqual([true])
  })

  it('starts a new job with /docs new, even with a job recorded', async () => {
    const { api, comment } = await world({ existing: [RECORDED] })
    const result = await comment('/docs new rewrite the auth guide')
    expect(result.exitCode, result.stdout).toBe(0)
    expect(api.posts).toEqual([{ what: 'create', prompt: 'rewrite the auth guide' }])
  })

  it('shows the recorded job in its tracking comment for /docs status, sending nothing to the agent', async () => {
    const { github, server, comment } = await world({ existing: [RECORDED] })
    const result = await comment('/docs status')
    expect(result.exitCode, result.stdout).toBe(0)
    expect(server.requests.map((request) => request.method)).toEqual(['GET'])
    expect(result.outputs).toMatchObject({
      outcome: 'skipped',
      'action-taken': 'status-replied',
      'job-id': 'job-7',
      status: 'completed',
      prLink: DOCS_PR
    })
    const tracked = github.comments.find((stored) => readMarker(stored.body)?.job === 'job-7')
    expect(tracked?.body).toContain(`opened a pull request: <a href="${DOCS_PR}">${DOCS_PR}</a>`)
    expect(github.comments).toHaveLength(1)
  })

  it('refuses a reader with a reply that names the access needed, without a mention, and sends nothing', async () => {
    const { github, server, comment } = await world({ existing: [RECORDED] })
    const result = await comment('/docs update the auth page', 'visitor')
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(0)
    const reply = github.comments.at(-1)?.body ?? ''
    expect(reply).toBe(
      'Only people with `write` access to this repository or more can ask for docs with `/docs`; `visitor` has `read`. Nothing was sent to the agent.'
    )
    expect(reply).not.toContain('@')
    expect(github.reactions.map((reaction) => reaction.content)).toEqual(['confused'])
    expect(result.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'refused', 'requested-by': 'visitor' })
  })

  it('lets triage ask when command-permission is triage, and answers an empty command with its usage', async () => {
    const { github, server, comment } = await world()
    const result = await comment('/docs', 'triager', { 'command-permission': 'triage' })
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(0)
    expect(github.comments.at(-1)?.body).toBe(
      'Ask with `/docs <instructions>` (follows up the job recorded here, or starts one), `/docs new <instructions>` (always a new job) or `/docs status`.'
    )
    expect(result.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'usage-replied' })
  })

  it('ignores every other comment at once: no request to the admin API, at most one GitHub read', async () => {
    const { github, server, comment } = await world({ existing: [RECORDED] })
    // Two as the bundle meets them; every comment that asks nothing is a row of test/unit/github/desk.test.ts.
    for (const body of ['Looks good to me', 'please /docs update']) {
      const result = await comment(body)
      expect(result.exitCode).toBe(0)
      expect(result.outputs).toMatchObject({ outcome: 'skipped', 'skip-reason': 'no command' })
    }
    expect(server.requests).toHaveLength(0)
    expect(github.calls).toHaveLength(0)
  })

  // A bot's comment and an edited one are ignored alike: rows of test/unit/github/desk.test.ts.
  it('ignores its own tracking comments, silently', async () => {
    const { github, server, comment } = await world()
    const ours = await comment(`${RECORDED.body}\n/docs nothing`, 'github-actions[bot]', {}, 'created')
    expect(ours.outputs['skip-reason']).toBe('no command')
    expect(server.requests).toHaveLength(0)
    expect(github.comments).toHaveLength(0)
    expect(github.reactions).toHaveLength(0)
  })

  it('reacts confused when the job asked for fails', async () => {
    const { github, comment } = await world({}, { run: { activePolls: 1, final: { status: 'failed' } } })
    const result = await comment('/docs document the new flag')
    expect(result.exitCode).toBe(1)
    expect(github.reactions.map((reaction) => reaction.content)).toEqual(['eyes', 'confused'])
  })

  it('answers a review comment on a diff line with reactions on that review comment', async () => {
    const { github, api, server } = await world()
    const event = {
      action: 'created',
      pull_request: { number: 42, title: 'Add a retries option', user: { login: 'octocat' } },
      comment: { id: 777, body: '/docs explain this option', user: { login: 'maintainer', type: 'User' } }
    }
    const result = await run(server, { context: 'auto' }, { eventName: 'pull_request_review_comment', event, github })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(api.posts.map((post) => post.what)).toEqual(['create'])
    // The comment that asked is the prompt, not material quoted again below it.
    expect(String(api.posts[0]?.prompt).match(/explain this option/g)).toHaveLength(1)
    expect(github.reactions).toMatchObject([
      { commentId: 777, review: true, content: 'eyes' },
      { commentId: 777, review: true, content: 'rocket' }
    ])
  })

  it('fails red and sends nothing when the request cannot be recorded first, the exception the promise names', async () => {
    const { github, server, comment } = await world({ refuseWrites: 403 })
    const result = await comment('/docs update the auth page')
    expect(result.exitCode).toBe(1)
    expect(result.outputs['outcome']).toBe('error')
    expect(errorAnnotations(result)[0]).toContain(
      'Nothing was sent to the agent: the request could not be recorded on GitHub first'
    )
    expect(server.requests).toHaveLength(0)
    expect(github.comments).toHaveLength(0)
    // Where a comment that cannot be made is promised to change no outcome, the exception is said.
    const promises = [
      ['README.md', "it never changes the job's outcome. The one exception: in `mode: pair`, `mode: batch` and with"],
      ['docs/reliability-and-security.md', "The comment never changes the job's outcome, with one exception."]
    ] as const
    for (const [file, said] of promises) {
      const text = await readFile(join(ROOT, file), 'utf8')
      expect(text.replace(/\s+/g, ' ').includes(said), `${file} says: ${said}`).toBe(true)
    }
  })

  it('refuses a command that could mention: @mintlify is not ours, before any request', async () => {
    const { server, comment } = await world()
    const result = await comment('@mintlify update', 'maintainer', { command: '@mintlify' })
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toContain(
      'Input "command" must be one word of at most 40 characters that does not start with @'
    )
    expect(server.requests).toHaveLength(0)
  })
})

describe('label requests', () => {
  const labelled = (label: string, sender = 'maintainer') => ({
    action: 'labeled',
    label: { name: label },
    issue: {
      number: 42,
      title: 'Explain rate limits',
      body: 'The docs never say what a 429 means.',
      user: { login: 'octocat' }
    },
    sender: { login: sender, type: 'User' }
  })

  it('starts a job with prompt when a writer adds the label, then takes the label off again', async () => {
    const { github, api, server } = await world({
      issues: [{ number: 42, title: 'Explain rate limits', labels: ['docs'], state: 'open' }]
    })
    const inputs = { command: '', label: 'docs', prompt: 'Document what this issue asks.', context: 'auto' }
    const result = await run(server, inputs, { eventName: 'issues', event: labelled('docs'), github })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(api.posts.map((post) => post.what)).toEqual(['create'])
    expect(String(api.posts[0]?.prompt)).toContain('The docs never say what a 429 means.')
    expect(String(api.posts[0]?.prompt)).not.toContain('make no change and open no pull request')
    expect(github.issues[0]?.labels).toEqual([])
    expect(result.outputs).toMatchObject({ 'action-taken': 'commanded', 'requested-by': 'maintainer' })
  })

  it('skips another label, and a reader adding the label', async () => {
    const { github, server } = await world()
    const inputs = { command: '', label: 'docs', prompt: 'Document what this issue asks.' }
    const other = await run(server, inputs, { eventName: 'issues', event: labelled('bug'), github })
    expect(other.outputs).toMatchObject({ outcome: 'skipped', 'skip-reason': 'the label added is not "docs"' })
    const reader = await run(server, inputs, { eventName: 'issues', event: labelled('docs', 'visitor'), github })
    expect(reader.outputs).toMatchObject({ outcome: 'skipped', 'action-taken': 'refused' })
    expect(github.comments.at(-1)?.body).toContain('can ask for docs with this label')
    expect(server.requests).toHaveLength(0)
  })

  it('asks nothing on any other event of an issue or pull request: opened, pushed to', async () => {
    const { github, server } = await world()
    const inputs = { command: '', label: 'docs', prompt: 'Document what this issue asks.' }
    const issue = { number: 42, title: 'Explain rate limits', user: { login: 'visitor' } }
    // Two as the bundle meets them; the label taken off, a comment and a push are rows of test/unit/modes/requests/.
    const events = [
      { eventName: 'issues', event: { action: 'opened', issue, sender: { login: 'visitor', type: 'User' } } },
      {
        eventName: 'pull_request',
        event: { action: 'synchronize', number: 42, pull_request: { number: 42, head: { sha: 'a'.repeat(40) } } }
      }
    ]
    for (const { eventName, event } of events) {
      const result = await run(server, inputs, { eventName, event, github })
      expect(result.outputs, eventName).toMatchObject({
        outcome: 'skipped',
        'skip-reason': 'no request: only adding the label "docs" asks'
      })
    }
    expect(server.requests).toHaveLength(0)
    expect(github.calls).toEqual([])
  })

  it('makes no check run either, with check: true, on an event that asks nothing', async () => {
    const { github, server } = await world()
    const inputs = { command: '/docs', check: 'true' }
    const push = { ref: 'refs/heads/main', before: 'a'.repeat(40), after: 'b'.repeat(40) }
    const result = await run(server, inputs, { eventName: 'push', event: push, github })
    expect(result.outputs).toMatchObject({
      outcome: 'skipped',
      'skip-reason': 'no request: only a comment that starts with /docs asks'
    })
    expect(github.calls).toEqual([])
    expect(github.checkRuns).toEqual([])
  })
})

describe('events that can never ask', () => {
  const push = { ref: 'refs/heads/main', before: 'a'.repeat(40), after: 'b'.repeat(40), commits: [] }
  // One as the bundle meets it; every event that can never ask is a row of test/unit/modes/requests/.
  const quiet = [['push', push]] as const

  it.each(quiet)(
    'end a step with command and label skipped at once on %s: no warning, no comment, no request',
    async (eventName, event) => {
      const { github, server } = await world()
      const inputs = { label: 'docs', prompt: 'Document it.', context: 'auto', 'max-jobs-per-hour': '5' }
      const result = await run(server, inputs, { eventName, event, github })
      expect(result.exitCode, result.stdout).toBe(0)
      expect(result.outputs).toMatchObject({
        outcome: 'skipped',
        'skip-reason': 'no request: only adding the label "docs" or a comment that starts with /docs asks'
      })
      expect(warningAnnotations(result)).toEqual([])
      expect(result.stdout).toContain('Skipped: no request: only adding the label "docs" or a comment')
      expect(server.requests).toHaveLength(0)
      expect(github.calls).toEqual([])
    }
  )

  it("warn once, in the inputs' terms, when a merged pull request meets a step with command, and send nothing", async () => {
    const { github, server } = await world()
    const merged = {
      action: 'closed',
      number: 42,
      pull_request: { number: 42, merged: true, state: 'closed', user: { login: 'octocat' } }
    }
    const inputs = { prompt: 'Document the merged change.', context: 'auto' }
    const result = await run(server, inputs, { eventName: 'pull_request', event: merged, github })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(warningAnnotations(result)).toEqual([
      'This step has "command", so it acts only when asked, and only a comment that starts with /docs asks: nothing is sent for this "pull_request" event (closed). To act on such events too, run a step of its own for them, without "command" or "label".'
    ])
    expect(result.outputs).toMatchObject({
      outcome: 'skipped',
      'skip-reason': 'no request: only a comment that starts with /docs asks'
    })
    expect(server.requests).toHaveLength(0)
    expect(github.calls).toEqual([])
  })

  it('warn once on an issue opened with a step with label, but not on a comment that could ask and did not', async () => {
    const { github, server } = await world()
    const inputs = { command: '/docs', label: 'docs', prompt: 'Document what this issue asks.' }
    const issue = { number: 42, title: 'Explain rate limits', user: { login: 'visitor' } }
    const opened = { action: 'opened', issue, sender: { login: 'visitor', type: 'User' } }
    const onIssue = await run(server, inputs, { eventName: 'issues', event: opened, github })
    expect(warningAnnotations(onIssue)).toHaveLength(1)
    expect(warningAnnotations(onIssue)[0]).toContain('nothing is sent for this "issues" event (opened)')
    const chat = await run(server, inputs, { eventName: 'issue_comment', event: commentEvent('Looks good'), github })
    expect(chat.outputs['skip-reason']).toBe('no command')
    expect(warningAnnotations(chat)).toEqual([])
    expect(server.requests).toHaveLength(0)
  })
})

describe('mode: pair with command', { timeout: RUNS_MS }, () => {
  // A step in the code repository acme/api (support/code-repository.ts).
  const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })
  /** An `issue_comment` on pull request #7 by `user`. */
  const pullRequestComment = (body: string, user: string) => ({
    action: 'created',
    issue: { number: 7, title: 'Add a retry option', body: '', pull_request: { url: 'x' }, user: { login: 'octocat' } },
    comment: { id: 9001, body, user: { login: user, type: 'User' } },
    sender: { login: user, type: 'User' }
  })
  async function comment(body: string, user: string) {
    const { github, api, server } = await world({
      roles: { maintainer: 'write' },
      pulls: { 'acme/api': [{ number: 7, state: 'open', labels: [], headSha: HEAD }] },
      pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] }
    })
    const inputs = { mode: 'pair', command: '/docs', prompt: 'Keep the docs in step.' }
    const result = await run(server, inputs, {
      eventName: 'issue_comment',
      event: pullRequestComment(body, user),
      github
    })
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
