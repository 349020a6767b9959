import { describe, expect, it } from 'vitest'
import { commentMarker, renderComment } from '../src/comment-body.ts'
import { resolveCommentTarget } from '../src/comment-target.ts'
import { parseJob } from '../src/job.ts'
import type { WaitResult } from '../src/poller.ts'

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
  const context = {
    jobId: 'job-1',
    timeoutMs: 1_800_000,
    runUrl: 'https://github.com/acme/docs/actions/runs/1',
    message: 'HTTP 404 <b>'
  }
  const result = (outcome: WaitResult['kind'], body: Record<string, unknown> = {}): WaitResult => {
    const parsed = parseJob(
      { status: outcome === 'timeout' ? 'active' : outcome, ...body },
      { jobId: 'job-1', githubHosts: new Set(['github.com']) }
    )
    const job = parsed.kind === 'job' ? parsed.job : undefined
    const stats = { polls: 3, elapsedMs: 65_000, job, faults: 0 }
    if (outcome === 'timeout') return { ...stats, kind: outcome, lastFault: undefined, consecutiveFaults: 0 }
    if (outcome === 'error') return { ...stats, job: undefined, kind: outcome, reason: 'x' }
    if (outcome === 'cancelled') return { ...stats, kind: outcome }
    return { ...stats, kind: outcome }
  }

  it('starts with the marker of its job', () => {
    expect(renderComment(result('completed'), context).split('\n')[0]).toBe(commentMarker('job-1'))
    expect(commentMarker('a-->b')).toBe('<!-- wait-for-mintlify-agent-job: a--%3Eb -->')
  })

  it.each([
    [
      'completed',
      { prLink: 'https://github.com/acme/docs/pull/2' },
      '✅ **Mintlify agent job completed**: the agent opened a pull request: <a href="https://github.com/acme/docs/pull/2">'
    ],
    ['completed', { prLink: null }, 'the agent changed no files, so there is no pull request'],
    ['failed', {}, '❌ **Mintlify agent job failed**: the agent hit an unrecoverable error'],
    ['archived', {}, '🗄️ **Mintlify agent job archived**'],
    ['timeout', {}, '⏱️ **Timed out waiting for the Mintlify agent job**: the job was still active after 30m'],
    ['error', {}, '❌ **The Mintlify agent step stopped on an error**: HTTP 404 &lt;b&gt;']
  ] as const)('says what happened: %s %j', (outcome, body, text) => {
    const rendered = renderComment(result(outcome, body), context)
    expect(rendered).toContain(text)
    expect(rendered).toContain('<a href="https://github.com/acme/docs/actions/runs/1">workflow run</a>')
    expect(rendered).toContain('waited 1m 5s')
  })

  it('escapes API text and links only an http(s) prLink', () => {
    const rendered = renderComment(
      result('completed', { prLink: 'javascript:alert(1)', model: '<img src=x>' }),
      context
    )
    expect(rendered).not.toContain('javascript:')
    expect(rendered).not.toContain('<img')
    expect(rendered).toContain('model &lt;img src=x&gt;')
  })
})
