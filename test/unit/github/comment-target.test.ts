import { describe, expect, it } from 'vitest'
import { resolveCommentTarget } from '../../../src/github/comment-target.ts'

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
