import { describe, expect, it } from 'vitest'
import { parseJob } from '../../../src/admin-api/agent-job.ts'
import { fitComment } from '../../../src/github/tracking-record.ts'
import {
  markerOf,
  MAX_SUBMISSIONS,
  promptHash,
  readMarker,
  type Submission,
  type TrackingState,
  withRequests
} from '../../../src/github/tracking-record.ts'
import { type CommentView, renderComment } from '../../../src/report/comment-body.ts'
import type { WaitResult } from '../../../src/wait/job-wait.ts'

describe('renderComment', () => {
  const runUrl = 'https://github.com/acme/docs/actions/runs/1'
  const state: TrackingState = {
    job: 'job-1',
    requests: [
      { kind: 'start', run: '1', attempt: 1, prompt: promptHash('Document <b>it</b>'), line: 'Document <b>it</b>' },
      { kind: 'follow-up', run: '2', attempt: 1, prompt: promptHash('Also *this*'), line: 'Also *this*' }
    ]
  }
  const ended = (outcome: WaitResult['kind'], body: Record<string, unknown> = {}): CommentView => {
    const parsed = parseJob(
      { status: outcome === 'timeout' ? 'active' : outcome, ...body },
      { jobId: 'job-1', githubHosts: new Set(['github.com']) }
    )
    const job = parsed.kind === 'job' ? parsed.job : undefined
    const stats = { polls: 3, elapsedMs: 65_000, job, faults: 0 }
    const result: WaitResult =
      outcome === 'timeout'
        ? { ...stats, kind: outcome, lastFault: undefined, lastFaultKind: undefined, consecutiveFaults: 0 }
        : outcome === 'error'
          ? { ...stats, job: undefined, kind: outcome, reason: 'x' }
          : { ...stats, kind: outcome }
    return { kind: 'ended', result, message: 'HTTP 404 <b>', timeoutMs: 1_800_000 }
  }

  it('starts with the marker, which carries the job and each request', () => {
    const fitted = fitComment(state, (fitting) => renderComment(fitting, { kind: 'active' }, runUrl))
    expect(fitted?.body.split('\n')[0]).toBe(markerOf(state))
    expect(readMarker(fitted?.body)).toEqual(state)
  })

  it('says the agent is working, and lists the prompt and each follow-up, escaped', () => {
    const rendered = renderComment(state, { kind: 'active' }, runUrl)
    expect(rendered).toContain('⏳ **Mintlify agent job running**: the agent is working on it.')
    expect(rendered).toContain('- Prompt: `Document <b>it</b>`\n- Follow-up: `Also *this*`')
    expect(rendered).toContain('<a href="https://github.com/acme/docs/actions/runs/1">workflow run</a>')
  })

  it("says a job that took no follow-up is replaced, quoting the API's refusal as code, and links the new job's comment", () => {
    const next = 'https://github.com/acme/api/issues/7#issuecomment-9'
    const reason = 'The API refused to send the follow-up (HTTP 400: @acme done <b>). Nothing was started.'
    expect(renderComment(state, { kind: 'superseded', reason, next }, runUrl)).toContain(
      `↪️ **Follow-up refused: a new job takes over**: this job took no follow-up (\`${reason}\`), so a new job is started for the whole pull request, to replace its docs pull request: see its tracking comment, <a href="${next}">${next}</a>.`
    )
    expect(renderComment(state, { kind: 'superseded', reason, next: undefined }, runUrl)).toContain(
      'to replace its docs pull request: see the workflow run.'
    )
  })

  it('shows prompts as code, where GitHub makes no mention, reference or link that notifies anyone', () => {
    const pinging: TrackingState = {
      job: 'job-1',
      requests: [{ kind: 'start', run: '1', attempt: 1, prompt: 'h', line: '@acme/everyone see #1 https://x.test' }]
    }
    expect(renderComment(pinging, { kind: 'active' }, runUrl)).toContain(
      '- Prompt: `@acme/everyone see #1 https://x.test`'
    )
  })

  it('keeps the first prompt and the latest follow-ups within the size GitHub allows a comment', () => {
    const request = (n: number): Submission => ({
      kind: n === 0 ? 'start' : 'follow-up',
      run: String(n),
      attempt: 1,
      prompt: promptHash(String(n)),
      line: `${n} ${'x'.repeat(200)}`
    })
    let grown: TrackingState = { job: 'job-1', requests: [] }
    for (let n = 0; n < 500; n++) grown = withRequests(grown, [request(n)])
    expect(grown.requests).toHaveLength(MAX_SUBMISSIONS)
    expect(grown.requests[0]).toEqual(request(0))
    expect(grown.requests.at(-1)).toEqual(request(499))
    expect(grown.omitted).toBe(500 - MAX_SUBMISSIONS)
    const rendered = `${markerOf(grown)}\n${renderComment(grown, { kind: 'active' }, runUrl)}`
    expect(rendered.length).toBeLessThan(65_536)
    expect(rendered).toContain(
      `- … ${500 - MAX_SUBMISSIONS} earlier follow-ups\n- Follow-up: \`${500 - MAX_SUBMISSIONS + 1} `
    )
    expect(readMarker(rendered)).toEqual(grown)
  })

  it.each([
    [
      ended('completed', { prLink: 'https://github.com/acme/docs/pull/2' }),
      '✅ **Mintlify agent job completed**: the agent opened a pull request: <a href="https://github.com/acme/docs/pull/2">'
    ],
    [
      ended('completed', { prLink: null }),
      'the agent opened no pull request (it changed nothing, or published directly'
    ],
    [ended('failed'), '❌ **Mintlify agent job failed**: the agent hit an unrecoverable error'],
    [ended('archived'), '🗄️ **Mintlify agent job archived**'],
    [ended('timeout'), '⏱️ **Timed out waiting for the Mintlify agent job**: the job was still `active` after 30m'],
    [ended('error'), '❌ **The Mintlify agent step stopped on an error**: `HTTP 404 <b>`'],
    [
      ended('cancelled'),
      '⏹️ **Run cancelled**: this workflow run was cancelled, and the Mintlify agent job may still be running'
    ],
    [
      { kind: 'started' } as const,
      '🚀 **Mintlify agent job started**: the agent is working on it; this run does not wait for it'
    ]
  ])('says what happened (%#)', (view, text) => {
    expect(renderComment(state, view, runUrl)).toContain(text)
  })

  it('shows API text as code, where no HTML is markup, and links only an http(s) prLink', () => {
    const rendered = renderComment(
      state,
      ended('completed', { prLink: 'javascript:alert(1)', model: '<img src=x>' }),
      runUrl
    )
    expect(rendered).not.toContain('javascript:')
    expect(rendered.replaceAll(/`[^`]*`/g, '')).not.toContain('<img')
    expect(rendered).toContain('model `<img src=x>`')
  })
})

it('keeps text with backticks inside its code span, and on one line', () => {
  const state = {
    job: 'job-1',
    requests: [{ kind: 'start', run: '1', attempt: 1, prompt: 'h', line: 'a ``b` c\n@d' }]
  } as const
  const rendered = renderComment(state, { kind: 'active' }, 'https://github.com/acme/docs/actions/runs/1')
  expect(rendered).toContain('- Prompt: ```a ``b` c @d```')
})

describe('fitComment', () => {
  const runUrl = 'https://github.com/acme/docs/actions/runs/1'
  const longProject = 'p'.repeat(1000)
  const request = (n: number): Submission => ({
    kind: n === 0 ? 'start' : 'follow-up',
    run: String(n),
    attempt: 1,
    prompt: promptHash(String(n)),
    line: `${n} ${'x'.repeat(118)}`,
    project: longProject
  })

  it("never passes GitHub's limit, however long the ids: the oldest follow-ups go first", () => {
    let state: TrackingState = { job: 'j'.repeat(900), requests: [] }
    for (let n = 0; n < MAX_SUBMISSIONS; n++) state = withRequests(state, [request(n)])
    expect(`${markerOf(state)}\n${renderComment(state, { kind: 'active' }, runUrl)}`.length).toBeGreaterThan(65_536)
    const fitted = fitComment(state, (fitting) => renderComment(fitting, { kind: 'active' }, runUrl))
    expect(fitted?.body.length).toBeLessThanOrEqual(65_536)
    expect(fitted?.state.requests[0]).toEqual(request(0))
    expect(fitted?.state.requests.at(-1)).toEqual(request(MAX_SUBMISSIONS - 1))
    expect(readMarker(fitted?.body)).toEqual(fitted?.state)
  })

  it('writes nothing when even the first prompt cannot fit', () => {
    const render = (state: TrackingState) => renderComment(state, { kind: 'active' }, runUrl)
    expect(fitComment({ job: 'j'.repeat(70_000), requests: [request(0)] }, render)).toBeUndefined()
  })
})

describe('API text in the comment', () => {
  it('mentions nobody: a model or an error holding @someone or #12 is code', () => {
    const parsed = parseJob(
      { id: 'job-1', status: 'failed', model: '@octocat #12' },
      { jobId: 'job-1', githubHosts: new Set() }
    )
    const job = parsed.kind === 'job' ? parsed.job : undefined
    const result: WaitResult = { kind: 'error', reason: 'x', polls: 1, elapsedMs: 1, faults: 0, job }
    const rendered = renderComment(
      { job: 'job-1', requests: [] },
      { kind: 'ended', result, message: 'HTTP 400: ask @octocat about #12', timeoutMs: 1000 },
      'https://github.com/acme/docs/actions/runs/1'
    )
    expect(rendered).toContain('`HTTP 400: ask @octocat about #12`')
    expect(rendered).toContain('model `@octocat #12`')
    expect(rendered.replaceAll(/`[^`]*`/g, '')).not.toMatch(/@octocat|#12/)
  })
})

describe('the preview on the comment', () => {
  const parsed = parseJob(
    { id: 'job-1', status: 'completed', prLink: 'https://github.com/acme/docs/pull/2' },
    { jobId: 'job-1', githubHosts: new Set() }
  )
  const result: WaitResult = {
    kind: 'completed',
    polls: 1,
    elapsedMs: 1,
    faults: 0,
    job: parsed.kind === 'job' ? parsed.job : undefined
  }
  const url = 'https://acme-x.mintlify.app/'
  it.each([
    [
      { kind: 'building', reason: 'it is building', url } as const,
      `🔄 **Preview building**: <a href="${url}">${url}</a>`
    ],
    [
      { kind: 'success', url, build: { status: 'success', summary: undefined, logs: [] } } as const,
      `🔍 **Preview ready**: <a href="${url}">${url}</a>`
    ],
    [
      { kind: 'failure', url, build: { status: 'failure', summary: 'ask @octocat', logs: [] } } as const,
      `❌ **Preview failed to build**: \`ask @octocat\` <a href="${url}">`
    ],
    [{ kind: 'unavailable', reason: 'no previews on the plan' } as const, '**No preview**: `no previews on the plan`']
  ])('%#', (preview, line) => {
    const rendered = renderComment(
      { job: 'job-1', requests: [] },
      { kind: 'ended', result, message: '', timeoutMs: 1, preview },
      'https://x'
    )
    expect(rendered).toContain(line)
  })
})
