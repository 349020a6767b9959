// The GitHub side's deadlines, tested with a short deadline passed in, against a loopback GitHub that accepts
// requests and never answers.
import { afterAll, describe, expect, it } from 'vitest'
import { type FakeGitHub, startFakeGitHub } from '../../../sim/github-api.ts'
import { openTransport } from '../../../src/transport/transport.ts'
import { settingsOf } from '../../../sim/settings.ts'
import type { GitHubClient, RateLimitHit } from '../../../src/github/octokit.ts'
import { type CommentThread, openThread } from '../../../src/github/thread.ts'
import { describeFailure, type FailedWork, failureOf } from '../../../src/github/failure.ts'
import { openSession, type RunInfo } from '../../../src/github/session.ts'
import { type CommentTarget, resolveCommentTarget } from '../../../src/github/event.ts'

const opened = openTransport([], { http: undefined, https: undefined, noProxy: '' }, new AbortController().signal)
const servers: FakeGitHub[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await opened.close()
})

function sideOf(github: FakeGitHub): CommentThread {
  servers.push(github)
  const run: RunInfo = {
    eventName: 'issues',
    payload: { issue: { number: 12 } },
    apiUrl: github.url,
    serverUrl: 'https://github.com',
    runId: 7,
    runAttempt: 1
  }
  const log = { info: () => undefined, warning: () => undefined, debug: () => undefined }
  const settings = settingsOf({ 'github-token': 'ghs_x' })
  const session = openSession(settings, opened.transport, { repository: 'acme/docs', log, deadlineMs: 30_000 }, run)
  const side = openThread(session)
  if (side.kind !== 'ready') throw new Error(side.reason)
  return side.thread
}

describe('openThread', () => {
  it('gives up on a GitHub that never answers at the deadline it is given, with a warning that names it', async () => {
    const github = await startFakeGitHub({ intercept: () => true })
    const side = sideOf(github)
    const write = {
      commentId: undefined,
      state: { job: 'job-5', requests: [] },
      render: () => 'Running',
      find: true,
      at: 0,
      cancelled: false,
      mine: []
    } as const
    const written = await side.write(write, 300)
    expect(written).toEqual({
      kind: 'warning',
      warning: expect.stringContaining(
        `Could not comment on issue #12 in acme/docs: GitHub's API (${github.url}) did not finish answering within the deadline of 300ms.`
      ) as string
    })
  })

  it('throws a message naming the deadline when reading the comments takes longer', async () => {
    const side = sideOf(await startFakeGitHub({ intercept: () => true }))
    await expect(side.listTracked(300)).rejects.toThrow(
      /^Could not read the comments of issue #12 in acme\/docs: GitHub's API \(.*\) did not finish answering within the deadline of 300ms\.$/
    )
  })

  it("names the workflow run's page and attempt from the run's context", async () => {
    const side = sideOf(await startFakeGitHub())
    expect(side.run).toEqual({ id: '7', attempt: 1, url: 'https://github.com/acme/docs/actions/runs/7' })
    expect(side.target).toEqual({ owner: 'acme', repo: 'docs', number: 12, noun: 'issue', from: 'event' })
  })
})

function client(options: { aborted?: boolean; rateLimit?: RateLimitHit } = {}): GitHubClient {
  const controller = new AbortController()
  if (options.aborted) controller.abort()
  return {
    octokit: undefined as never,
    signal: controller.signal,
    installation: true,
    rateLimitHit: () => options.rateLimit,
    callCount: () => 0,
    noAnswer: () => undefined,
    bounded: (work) => work
  }
}

const ISSUE: CommentTarget = { owner: 'acme', repo: 'docs', number: 12, noun: 'issue', from: 'issue-number' }
const WORK: FailedWork & { readonly cancelled: boolean } = {
  doing: 'comment on',
  target: ISSUE,
  apiUrl: 'https://api.github.com',
  deadlineMs: 60_000,
  cancelled: false,
  redact: (text) => text.replaceAll('ghs_secret', '***')
}
/** The failure read from the error and its client, then worded: what a tracking comment's failure says. */
const describeGitHubFailure = (error: unknown, github: GitHubClient, work: typeof WORK): string =>
  describeFailure(failureOf(error, github, work.cancelled), work)
const httpError = (status: number, message: string) => Object.assign(new Error(message), { status })

describe('describeFailure', () => {
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

  it('says to check issue-number on a 404 when issue-number named it, and redacts what GitHub said', () => {
    expect(describeGitHubFailure(httpError(404, 'Not Found ghs_secret'), client(), WORK)).toBe(
      'Could not comment on issue #12 in acme/docs: it was not found (HTTP 404: Not Found ***). Check issue-number.'
    )
  })

  it.each([
    ['event', 'It is the one the event is about, so it was deleted or transferred since, or github-token cannot see'],
    ['digest', 'It is the digest issue this batch found, so it was deleted or transferred since']
  ] as const)('on a 404 of an issue that issue-number did not name (%s), says what may have happened', (from, why) => {
    const text = describeGitHubFailure(httpError(404, 'Not Found'), client(), { ...WORK, target: { ...ISSUE, from } })
    expect(text).toContain(why)
    expect(text).not.toContain('Check issue-number')
  })
})

describe('resolveCommentTarget', () => {
  const base = { issueNumber: undefined, repo: { owner: 'acme', name: 'docs' } }
  it.each([
    ['issues', { issue: { number: 5 } }, 5, 'issue'],
    ['issue_comment', { issue: { number: 6, pull_request: { url: 'x' } } }, 6, 'pull request'],
    ['pull_request', { number: 7, pull_request: { number: 7 } }, 7, 'pull request'],
    ['pull_request_target', { pull_request: { number: 8 } }, 8, 'pull request'],
    ['pull_request_review', { review: {}, pull_request: { number: 9 } }, 9, 'pull request']
  ])('finds the target of a %s event', (eventName, payload, number, noun) => {
    expect(resolveCommentTarget({ ...base, eventName, payload })).toEqual({
      kind: 'target',
      target: { owner: 'acme', repo: 'docs', number, noun, from: 'event' }
    })
  })

  it('prefers issue-number over the event', () => {
    const resolved = resolveCommentTarget({
      ...base,
      issueNumber: 3,
      eventName: 'issues',
      payload: { issue: { number: 5 } }
    })
    expect(resolved).toMatchObject({ kind: 'target', target: { number: 3, from: 'issue-number' } })
  })

  it.each(['push', 'workflow_dispatch', 'schedule'])('finds none for %s', (eventName) => {
    const resolved = resolveCommentTarget({ ...base, eventName, payload: { ref: 'refs/heads/main' } })
    expect(resolved).toEqual({ kind: 'none', reason: expect.stringContaining(`"${eventName}" event`) as string })
  })
})
