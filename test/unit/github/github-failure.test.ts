import { describe, expect, it } from 'vitest'
import type { CommentTarget } from '../../../src/github/comment-target.ts'
import { describeGitHubFailure, type FailedWork } from '../../../src/github/github-failure.ts'
import type { GitHubClient, RateLimitHit } from '../../../src/github/octokit-client.ts'

function client(options: { aborted?: boolean; rateLimit?: RateLimitHit } = {}): GitHubClient {
  const controller = new AbortController()
  if (options.aborted) controller.abort()
  return {
    octokit: undefined as never,
    signal: controller.signal,
    rateLimitHit: () => options.rateLimit,
    requestCount: () => 0,
    bounded: (work) => work
  }
}

const ISSUE: CommentTarget = { owner: 'acme', repo: 'docs', number: 12, noun: 'issue' }
const WORK: FailedWork = {
  doing: 'comment on',
  target: ISSUE,
  apiUrl: 'https://api.github.com',
  deadlineMs: 60_000,
  cancelled: false,
  redact: (text) => text.replaceAll('ghs_secret', '***')
}
const httpError = (status: number, message: string) => Object.assign(new Error(message), { status })

describe('describeGitHubFailure', () => {
  it.each([
    [ISSUE, 'issues: write'],
    [{ ...ISSUE, noun: 'pull request' } as const, 'pull-requests: write'],
    [{ ...ISSUE, noun: 'issue or pull request' } as const, 'issues: write (or pull-requests: write for a pull request)']
  ])('names the permission a 403 lacks (%#)', (target, permission) => {
    expect(
      describeGitHubFailure(httpError(403, 'Resource not accessible by integration'), client(), { ...WORK, target })
    ).toContain(
      `the token lacks permission (HTTP 403: Resource not accessible by integration). Give the workflow or job "permissions: ${permission}"`
    )
  })

  it('names a rate limit that outlasts the deadline, not a permission', () => {
    const text = describeGitHubFailure(
      httpError(403, 'limit'),
      client({ rateLimit: { secondary: true, retryAfterS: 600 } }),
      WORK
    )
    expect(text).toBe(
      "Could not comment on issue #12 in acme/docs: GitHub's secondary rate limit for this token was reached, and it asked to wait 600s, past the deadline of 1m. The limit resets by itself; many jobs using one token share it."
    )
  })

  it.each([
    [{ ...WORK, cancelled: true }, 'Could not comment on issue #12 in acme/docs: the run was cancelled.'],
    [
      WORK,
      "Could not comment on issue #12 in acme/docs: GitHub's API (https://api.github.com) did not finish answering within the deadline of 1m."
    ]
  ])('tells a cancel from a deadline (%#)', (work, text) => {
    expect(describeGitHubFailure(new Error('aborted'), client({ aborted: true }), work)).toBe(text)
  })

  it('says to check issue-number on a 404, and redacts what GitHub said', () => {
    expect(describeGitHubFailure(httpError(404, 'Not Found ghs_secret'), client(), WORK)).toBe(
      'Could not comment on issue #12 in acme/docs: it was not found (HTTP 404: Not Found ***). Check issue-number.'
    )
  })
})
