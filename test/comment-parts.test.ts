import { describe, expect, it } from 'vitest'
import { type CommentView, renderComment } from '../src/comment-body.ts'
import { resolveCommentTarget } from '../src/comment-target.ts'
import { parseJob } from '../src/job.ts'
import type { WaitResult } from '../src/poller.ts'
import {
  firstLine,
  MAX_TRACKED_REQUESTS,
  markerOf,
  promptHash,
  readMarker,
  type TrackedRequest,
  type TrackingState,
  withRequests
} from '../src/tracking.ts'

describe('resolveCommentTarget', () => {
  const base = { issueNumber: undefined, repository: 'acme/docs' }
  it.each([
    ['issues', { issue: { number: 5 } }, 5, 'issue'],
    ['issue_comment', { issue: { number: 6, pull_request: { url: 'x' } } }, 6, 'pull request'],
    ['pull_request', { number: 7, pull_request: { number: 7 } }, 7, 'pull request'],
    ['pull_request_target', { pull_request: { number: 8 } }, 8, 'pull request'],
    ['pull_request_review', { review: {}, pull_request: { number: 9 } }, 9, 'pull request']
  ])('finds the target of a %s event', (eventName, payload, number, noun) => {
    expect(resolveCommentTarget({ ...base, eventName, payload })).toEqual({
      kind: 'target',
      target: { owner: 'acme', repo: 'docs', number, noun }
    })
  })

  it('prefers issue-number over the event', () => {
    const resolved = resolveCommentTarget({
      ...base,
      issueNumber: 3,
      eventName: 'issues',
      payload: { issue: { number: 5 } }
    })
    expect(resolved).toMatchObject({ kind: 'target', target: { number: 3 } })
  })

  it.each(['push', 'workflow_dispatch', 'schedule'])('finds none for %s', (eventName) => {
    const resolved = resolveCommentTarget({ ...base, eventName, payload: { ref: 'refs/heads/main' } })
    expect(resolved).toEqual({ kind: 'none', reason: expect.stringContaining(`"${eventName}" event`) as string })
  })
})

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
        ? { ...stats, kind: outcome, lastFault: undefined, consecutiveFaults: 0 }
        : outcome === 'error'
          ? { ...stats, job: undefined, kind: outcome, reason: 'x' }
          : { ...stats, kind: outcome }
    return { kind: 'ended', result, message: 'HTTP 404 <b>', timeoutMs: 1_800_000 }
  }

  it('starts with the marker, which carries the job and each request', () => {
    const rendered = renderComment(state, { kind: 'active' }, runUrl)
    expect(rendered.split('\n')[0]).toBe(markerOf(state))
    expect(readMarker(rendered)).toEqual(state)
  })

  it('says the agent is working, and lists the prompt and each follow-up, escaped', () => {
    const rendered = renderComment(state, { kind: 'active' }, runUrl)
    expect(rendered).toContain('⏳ **Mintlify agent job running**: the agent is working on it.')
    expect(rendered).toContain(
      '- Prompt: <code>Document &lt;b&gt;it&lt;/b&gt;</code>\n- Follow-up: <code>Also &#42;this&#42;</code>'
    )
    expect(rendered).toContain('<a href="https://github.com/acme/docs/actions/runs/1">workflow run</a>')
  })

  it('shows prompts as code, where GitHub makes no mention, reference or link that notifies anyone', () => {
    const pinging: TrackingState = {
      job: 'job-1',
      requests: [{ kind: 'start', run: '1', attempt: 1, prompt: 'h', line: '@acme/everyone see #1 https://x.test' }]
    }
    expect(renderComment(pinging, { kind: 'active' }, runUrl)).toContain(
      '- Prompt: <code>@acme/everyone see #1 https://x.test</code>'
    )
  })

  it('keeps the first prompt and the latest follow-ups within the size GitHub allows a comment', () => {
    const request = (n: number): TrackedRequest => ({
      kind: n === 0 ? 'start' : 'follow-up',
      run: String(n),
      attempt: 1,
      prompt: promptHash(String(n)),
      line: `${n} ${'x'.repeat(200)}`
    })
    let grown: TrackingState = { job: 'job-1', requests: [] }
    for (let n = 0; n < 500; n++) grown = withRequests(grown, [request(n)])
    expect(grown.requests).toHaveLength(MAX_TRACKED_REQUESTS)
    expect(grown.requests[0]).toEqual(request(0))
    expect(grown.requests.at(-1)).toEqual(request(499))
    expect(grown.omitted).toBe(500 - MAX_TRACKED_REQUESTS)
    const rendered = renderComment(grown, { kind: 'active' }, runUrl)
    expect(rendered.length).toBeLessThan(65_536)
    expect(rendered).toContain(
      `- … ${500 - MAX_TRACKED_REQUESTS} earlier follow-ups\n- Follow-up: <code>${500 - MAX_TRACKED_REQUESTS + 1} `
    )
    expect(readMarker(rendered)).toEqual(grown)
  })

  it.each([
    [
      ended('completed', { prLink: 'https://github.com/acme/docs/pull/2' }),
      '✅ **Mintlify agent job completed**: the agent opened a pull request: <a href="https://github.com/acme/docs/pull/2">'
    ],
    [ended('completed', { prLink: null }), 'the agent changed no files, so there is no pull request'],
    [ended('failed'), '❌ **Mintlify agent job failed**: the agent hit an unrecoverable error'],
    [ended('archived'), '🗄️ **Mintlify agent job archived**'],
    [ended('timeout'), '⏱️ **Timed out waiting for the Mintlify agent job**: the job was still active after 30m'],
    [ended('error'), '❌ **The Mintlify agent step stopped on an error**: HTTP 404 &lt;b&gt;'],
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

  it('escapes API text and links only an http(s) prLink', () => {
    const rendered = renderComment(
      state,
      ended('completed', { prLink: 'javascript:alert(1)', model: '<img src=x>' }),
      runUrl
    )
    expect(rendered).not.toContain('javascript:')
    expect(rendered).not.toContain('<img')
    expect(rendered).toContain('model &lt;img src=x&gt;')
  })
})

describe('the tracking marker', () => {
  it('reads the marker of an earlier version, which tracked the job alone', () => {
    expect(readMarker('<!-- wait-for-mintlify-agent-job: job-1 -->\nold outcome')).toEqual({
      job: 'job-1',
      requests: []
    })
  })

  it('keeps an id with odd characters intact, and can never be closed early by one', () => {
    const odd: TrackingState = { job: 'a-->b<!--?#%&', requests: [] }
    const marker = markerOf(odd)
    expect(marker.indexOf('-->')).toBe(marker.length - 3)
    expect(readMarker(marker)).toEqual(odd)
  })

  it('reads no job id that could not be one: a space, a control character, or a dot path', () => {
    for (const job of ['a b', 'a\nb', '..', '.']) expect(readMarker(markerOf({ job, requests: [] }))).toBeUndefined()
  })

  it('reads nothing from a comment that only quotes a marker, or a marker with a mangled state', () => {
    expect(readMarker(`> ${markerOf({ job: 'j', requests: [] })}`)).toBeUndefined()
    expect(readMarker('<!-- wait-for-mintlify-agent-job: j bm90IGpzb24 -->')).toEqual({ job: 'j', requests: [] })
    expect(readMarker('<!-- wait-for-mintlify-agent-job: %E0%A4 -->')).toBeUndefined()
  })

  it('fingerprints a prompt without keeping it, and shows its first line', () => {
    expect(promptHash('Document the API')).toMatch(/^[0-9a-f]{16}$/)
    expect(promptHash('Document the API')).not.toBe(promptHash('Document the API '))
    expect(firstLine('\n\n  Fix the ::error:: page\r\nand more')).toBe('Fix the ::error:: page')
  })
})
