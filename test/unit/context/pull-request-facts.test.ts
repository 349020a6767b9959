import { describe, expect, it } from 'vitest'
import { pullRequestFacts } from '../../../src/context/pull-request-facts.ts'
import { repositoryName } from '../../../src/context/repository-name.ts'
import { mergedPullRequest } from './event-payloads.ts'

const ACME = repositoryName('acme/widgets', {})

describe('pullRequestFacts', () => {
  it('reads a merged pull request, and asks for its files', () => {
    expect(pullRequestFacts('pull_request', mergedPullRequest(), ACME)).toEqual({
      facts: {
        kind: 'pull-request',
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
      fetch: { kind: 'nothing' }
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
    expect(pullRequestFacts('pull_request', mergedPullRequest(), undefined).fetch).toEqual({ kind: 'nothing' })
  })
})
