import { CHANGE_EVENTS } from '../../../src/runner/events.ts'
import { describe, expect, it } from 'vitest'
import {
  commentOnPullRequest,
  mergedPullRequest,
  NO_COMMIT,
  publishedRelease,
  pushToMain,
  SHA_AFTER,
  SHA_BEFORE
} from '../support/event-payloads.ts'
import { seededRandom } from '../support/seeded-random.ts'
import {
  factsFromEvent,
  issueFacts,
  pullRequestFacts,
  pushFacts,
  releaseFacts,
  repositoryName
} from '../../../src/github/event.ts'

describe('factsFromEvent', () => {
  it.each([
    ['pull_request', mergedPullRequest(), 'pull-request', 'pull-request-files'],
    ['pull_request_target', mergedPullRequest(), 'pull-request', 'pull-request-files'],
    ['push', pushToMain(), 'push', 'compare'],
    ['release', publishedRelease(), 'release', 'none'],
    ['issues', { issue: { number: 5, title: 'Docs for retries' } }, 'issue', 'none'],
    ['issue_comment', commentOnPullRequest(), 'issue', 'pull-request-files']
  ])('reads a %s event as %s facts, fetching %s', (event, payload, kind, fetch) => {
    const read = factsFromEvent(event, payload, 'acme/widgets')
    expect(read.facts.kind).toBe(kind)
    expect(read.fetch.kind).toBe(fetch)
  })

  it.each(['workflow_dispatch', 'schedule', 'pull_request_review', 'repository_dispatch', ''])(
    'adds nothing for a %j event, naming it',
    (event) => {
      expect(factsFromEvent(event, mergedPullRequest(), 'acme/widgets')).toEqual({
        facts: { kind: 'none', reason: `a "${event || 'unnamed'}" event describes no change` },
        fetch: { kind: 'none' }
      })
    }
  )

  it('quotes an odd event name only by its word characters', () => {
    const read = factsFromEvent('sched"ule\n::error::x', {}, 'acme/widgets')
    expect(read.facts).toEqual({ kind: 'none', reason: 'a "scheduleerrorx" event describes no change' })
  })

  it('never throws, whatever the payload holds', () => {
    const random = seededRandom(2024)
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T
    const anyValue = (depth: number): unknown => {
      const leaves = [null, undefined, true, false, 0, -1, 1.5, 2 ** 64, '', 'text', '0'.repeat(40)]
      if (depth > 3 || random() < 0.4) return pick(leaves)
      if (random() < 0.3) return Array.from({ length: Math.floor(random() * 4) }, () => anyValue(depth + 1))
      const keys = ['number', 'pull_request', 'issue', 'comment', 'release', 'commits', 'head', 'base', 'repo', 'user']
      const more = ['labels', 'title', 'body', 'before', 'after', 'ref', 'id', 'message', 'author', 'full_name']
      return Object.fromEntries(Array.from({ length: 4 }, () => [pick([...keys, ...more]), anyValue(depth + 1)]))
    }
    const events = ['pull_request', 'pull_request_target', 'push', 'release', 'issues', 'issue_comment', 'schedule']
    for (let round = 0; round < 2000; round += 1) {
      expect(() => factsFromEvent(pick(events), anyValue(0), pick(['acme/widgets', '', 'x']))).not.toThrow()
    }
  })
})

const ACME = repositoryName('acme/widgets', {})

describe('pullRequestFacts', () => {
  it('reads a merged pull request, and asks for its files', () => {
    expect(pullRequestFacts('pull_request', mergedPullRequest(), ACME)).toEqual({
      facts: {
        kind: 'pull-request',
        action: 'closed',
        draft: false,
        headSha: '',
        createdAt: undefined,
        repository: 'acme/widgets',
        number: 128,
        title: 'Add a retry option to the client',
        url: 'https://github.com/acme/widgets/pull/128',
        author: 'octocat',
        baseRef: 'main',
        headRef: 'feature/retry',
        headRepository: undefined,
        merged: true,
        closed: true,
        mergeCommitSha: '4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39',
        labels: ['enhancement', 'needs docs'],
        body: expect.stringContaining('Adds `retries`') as unknown,
        changedFiles: 4,
        additions: 63,
        deletions: 6,
        commitCount: 3
      },
      fetch: { kind: 'pull-request-files', owner: 'acme', repo: 'widgets', number: 128 }
    })
  })

  it("names a fork's repository, and no merge commit before the merge", () => {
    const payload = mergedPullRequest()
    const pull = payload['pull_request'] as Record<string, unknown>
    Object.assign(pull, { merged: false, state: 'open', head: { ref: 'patch-1', repo: { full_name: 'mona/widgets' } } })
    const { facts } = pullRequestFacts('pull_request_target', payload, ACME)
    expect(facts).toMatchObject({ headRepository: 'mona/widgets', merged: false, closed: false })
    expect(facts.kind === 'pull-request' && facts.mergeCommitSha).toBeUndefined()
  })

  it('does not take the same repository in another case for a fork', () => {
    const payload = mergedPullRequest()
    Object.assign(payload['pull_request'] as object, { head: { ref: 'x', repo: { full_name: 'ACME/Widgets' } } })
    expect(pullRequestFacts('pull_request', payload, ACME).facts).toMatchObject({ headRepository: undefined })
  })

  it('takes the top-level number when the pull request has none', () => {
    expect(pullRequestFacts('pull_request', { number: 9, pull_request: {} }, ACME).facts).toMatchObject({ number: 9 })
  })

  it.each([
    ['no pull request', {}],
    ['a number in a string', { pull_request: { number: '128' } }],
    ['a zero number', { pull_request: { number: 0 } }],
    ['a fraction', { pull_request: { number: 1.5 } }]
  ])('adds nothing for %s, and says why', (_name, payload) => {
    expect(pullRequestFacts('pull_request', payload, ACME)).toEqual({
      facts: { kind: 'none', reason: 'the "pull_request" event\'s payload has no pull request number' },
      fetch: { kind: 'none' }
    })
  })

  it('reads fields of the wrong type as empty', () => {
    const payload = {
      pull_request: { number: 3, title: 7, html_url: 'javascript:alert(1)', user: 'x', labels: 'bug', body: null }
    }
    expect(pullRequestFacts('pull_request', payload, ACME).facts).toMatchObject({
      title: '',
      url: '',
      author: '',
      labels: [],
      body: '',
      merged: false,
      changedFiles: undefined
    })
  })

  it('reads the pull request but asks for nothing without a repository to ask', () => {
    expect(pullRequestFacts('pull_request', mergedPullRequest(), undefined).fetch).toEqual({ kind: 'none' })
  })
})

describe('pushFacts', () => {
  it('reads a push, its commits oldest first, and asks to compare before and after', () => {
    const { facts, fetch } = pushFacts(pushToMain(), ACME)
    expect(facts).toMatchObject({
      kind: 'push',
      repository: 'acme/widgets',
      ref: 'refs/heads/main',
      before: SHA_BEFORE,
      after: SHA_AFTER,
      compareUrl: expect.stringContaining('https://github.com/acme/widgets/compare/') as unknown,
      created: false,
      deleted: false,
      forced: false,
      pusher: 'mona',
      commitsTotal: undefined,
      headCommit: { sha: 'bbbbbbb2222222222222222222222222222222222', message: 'Document retries', author: 'Hubot' }
    })
    expect(facts.kind === 'push' && facts.commits.map((commit) => commit.author)).toEqual(['mona', 'Hubot'])
    expect(fetch).toEqual({ kind: 'compare', owner: 'acme', repo: 'widgets', base: SHA_BEFORE, head: SHA_AFTER })
  })

  it.each([
    ['created a branch', { before: NO_COMMIT, created: true }, { created: true, deleted: false }],
    ['created a branch, by its before alone', { before: NO_COMMIT }, { created: true }],
    ['deleted a branch', { after: NO_COMMIT, deleted: true, commits: [] }, { deleted: true, created: false }],
    ['deleted a branch, by its after alone', { after: NO_COMMIT }, { deleted: true }]
  ])('says the push %s, and compares nothing', (_name, change, expected) => {
    const { facts, fetch } = pushFacts({ ...pushToMain(), ...change }, ACME)
    expect(facts).toMatchObject(expected)
    expect(fetch).toEqual({ kind: 'none' })
  })

  it.each([
    ['a before that is no commit name', { before: 'main' }],
    ['an after that would move the path', { after: '../../orgs/x' }],
    ['no before', { before: undefined }]
  ])('compares nothing for %s', (_name, change) => {
    expect(pushFacts({ ...pushToMain(), ...change }, ACME).fetch).toEqual({ kind: 'none' })
  })

  it('keeps the size the payload gives, and a forced push', () => {
    expect(pushFacts({ ...pushToMain(), size: 31, forced: true }, ACME).facts).toMatchObject({
      commitsTotal: 31,
      forced: true
    })
  })

  it('skips commits that are not objects', () => {
    const { facts } = pushFacts({ ...pushToMain(), commits: [null, 'x', 3, { id: 'c1', message: 'm' }] }, ACME)
    expect(facts.kind === 'push' && facts.commits).toEqual([{ sha: 'c1', message: 'm', author: '' }])
  })

  it.each([null, 'push', [], {}])('adds nothing for the payload %j', (payload) => {
    expect(pushFacts(payload, ACME)).toEqual({
      facts: { kind: 'none', reason: 'the "push" event\'s payload is empty' },
      fetch: { kind: 'none' }
    })
  })
})

describe('issueFacts', () => {
  it('reads a comment on a pull request: the conversation, the comment that started the run, and its files to fetch', () => {
    expect(issueFacts('issue_comment', commentOnPullRequest(), ACME)).toEqual({
      facts: {
        kind: 'issue',
        repository: 'acme/widgets',
        number: 77,
        title: 'Retry on 502',
        url: 'https://github.com/acme/widgets/pull/77',
        author: 'octocat',
        body: 'Retries 502s.',
        isPullRequest: true,
        labels: [],
        comment: {
          author: 'mona',
          url: 'https://github.com/acme/widgets/pull/77#issuecomment-1',
          body: '/docs document the new option'
        }
      },
      fetch: { kind: 'pull-request-files', owner: 'acme', repo: 'widgets', number: 77 }
    })
  })

  it('reads an issue, without a comment for an issues event', () => {
    const payload = { ...commentOnPullRequest(), issue: { number: 5, title: 'Docs for retries' } }
    expect(issueFacts('issues', payload, ACME).facts).toMatchObject({
      number: 5,
      isPullRequest: false,
      comment: undefined
    })
  })

  it.each([{}, { issue: { number: -2 } }, { issue: [] }])('adds nothing without an issue number: %j', (payload) => {
    expect(issueFacts('issues', payload, ACME).facts).toEqual({
      kind: 'none',
      reason: 'the "issues" event\'s payload has no issue number'
    })
  })
})

describe('releaseFacts', () => {
  it('reads the release and its notes, and asks for nothing more', () => {
    expect(releaseFacts(publishedRelease(), repositoryName('acme/widgets', {}))).toEqual({
      facts: {
        kind: 'release',
        repository: 'acme/widgets',
        tag: 'v2.4.0',
        name: 'Retries',
        url: 'https://github.com/acme/widgets/releases/tag/v2.4.0',
        author: 'octocat',
        body: '## What is new\n\n- `retries` option',
        draft: false,
        prerelease: true
      },
      fetch: { kind: 'none' }
    })
  })

  it.each([{}, { release: null }, { release: 'v1' }])('adds nothing for %j', (payload) => {
    expect(releaseFacts(payload, undefined).facts).toEqual({
      kind: 'none',
      reason: 'the "release" event\'s payload has no release'
    })
  })
})

describe('repositoryName', () => {
  it('reads GITHUB_REPOSITORY', () => {
    expect(repositoryName('acme/widgets.js', {})).toEqual({
      owner: 'acme',
      repo: 'widgets.js',
      fullName: 'acme/widgets.js'
    })
  })

  it("falls back on the payload's repository when GITHUB_REPOSITORY is not a name", () => {
    expect(repositoryName('', { repository: { full_name: 'acme/docs' } })?.fullName).toBe('acme/docs')
  })

  it.each(['', 'acme', 'acme/', '/widgets', 'acme/widgets/extra', '../widgets', 'acme/..', 'acme/wid gets', 'a/b?c'])(
    'refuses %j',
    (name) => {
      expect(repositoryName(name, { repository: { full_name: name } })).toBeUndefined()
    }
  )
})

describe('CHANGE_EVENTS', () => {
  const describesNoChange = (name: string): boolean => {
    const { facts } = factsFromEvent(name, {}, 'acme/docs')
    return facts.kind === 'none' && facts.reason.includes('describes no change')
  }

  it.each([...CHANGE_EVENTS])('%s is read for its change: the setup reads it, and the event gives facts', (name) => {
    expect(describesNoChange(name)).toBe(false)
  })

  it('leaves out an event that describes no change', () => {
    expect(describesNoChange('workflow_dispatch')).toBe(true)
    expect(CHANGE_EVENTS.has('workflow_dispatch')).toBe(false)
  })
})
