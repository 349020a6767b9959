import { describe, expect, it } from 'vitest'
import {
  commentOnPullRequest,
  mergedPullRequest,
  NO_COMMIT,
  publishedRelease,
  pushToMain
} from '../support/event-payloads.ts'
import type { IssueFacts, PullRequestFacts, PushFacts } from '../../../src/github/change.ts'
import { factsFromEvent } from '../../../src/github/event.ts'
import { issueSection, pullRequestSection, pushSection, releaseSection } from '../../../src/prompt/section.ts'

function prFacts(change: Partial<PullRequestFacts> = {}): PullRequestFacts {
  const read = factsFromEvent('pull_request', mergedPullRequest(), 'acme/widgets').facts
  if (read.kind !== 'pull-request') throw new Error('not a pull request')
  return { ...read, ...change }
}

describe('pullRequestSection', () => {
  it('names the pull request and its state, then its facts', () => {
    const plan = pullRequestSection(prFacts(), {})
    expect(plan.identity).toBe('Pull request #128 in `acme/widgets`, merged')
    expect(plan.facts).toEqual([
      '- Title: `Add a retry option to the client`',
      '- URL: `https://github.com/acme/widgets/pull/128`',
      '- Author: `octocat`',
      '- Base ← head: `main` ← `feature/retry`',
      '- Merge commit: `4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39`',
      '- Labels: `enhancement`, `needs docs`',
      '- Size: 4 files changed, +63 -6, 3 commits'
    ])
  })

  it.each([
    [{ merged: false, closed: true, mergeCommitSha: undefined }, 'closed without merging'],
    [{ merged: false, closed: false, mergeCommitSha: undefined }, 'open']
  ])('says the pull request is %s', (change, state) => {
    expect(pullRequestSection(prFacts(change), {}).identity).toBe(`Pull request #128 in \`acme/widgets\`, ${state}`)
  })

  it("names a fork's repository after its branch, and leaves out what is unknown", () => {
    const plan = pullRequestSection(
      prFacts({
        headRepository: 'mona/widgets',
        url: '',
        labels: [],
        mergeCommitSha: undefined,
        changedFiles: undefined,
        additions: undefined,
        deletions: undefined,
        commitCount: undefined,
        author: ''
      }),
      {}
    )
    expect(plan.facts).toEqual([
      '- Title: `Add a retry option to the client`',
      '- Author: (unknown)',
      '- Base ← head: `main` ← `feature/retry` in `mona/widgets`'
    ])
  })

  it('shows 20 labels and counts the rest', () => {
    const labels = Array.from({ length: 25 }, (_, i) => `l${i}`)
    const line = pullRequestSection(prFacts({ labels }), {}).facts.find((fact) => fact.startsWith('- Labels'))
    expect(line).toMatch(/`l19` and 5 more$/)
  })

  it('quotes the body without its HTML comment, and lists the files when read', () => {
    const plan = pullRequestSection(prFacts(), {
      files: [{ path: 'a.ts', status: 'added', additions: 1, deletions: 0 }]
    })
    expect(plan.quotes).toEqual([
      {
        label: 'Pull request body, as written by its author:',
        content:
          'Adds `retries` to `createClient`.\n\nThe default stays 0, so nothing changes unless you opt in.\n\nCloses #120',
        ifEmpty: 'The pull request has no body.'
      }
    ])
    expect(plan.files?.total).toBe(4)
    expect(pullRequestSection(prFacts(), {}).files).toBeUndefined()
  })

  it('names a review comment on its diff that started the run, and quotes it after the body, as a conversation comment', () => {
    const comment = {
      id: 5,
      body: 'Why 0 <!-- hidden -->by default?',
      html_url: 'https://github.com/acme/widgets/pull/128#discussion_r5',
      user: { login: 'mona' }
    }
    const read = factsFromEvent('pull_request_review_comment', { ...mergedPullRequest(), comment }, 'acme/widgets')
    if (read.facts.kind !== 'pull-request') throw new Error('not a pull request')
    const plan = pullRequestSection(read.facts, {})
    expect(plan.identity).toBe('Pull request #128 in `acme/widgets`, merged (a review comment on its diff)')
    expect(plan.facts.at(-1)).toBe(
      '- Comment that started this run: by `mona`, `https://github.com/acme/widgets/pull/128#discussion_r5`'
    )
    expect(plan.quotes.map((quote) => [quote.label, quote.content])).toEqual([
      ['Pull request body, as written by its author:', expect.stringContaining('Adds `retries`') as string],
      ['Comment that started this run, as written by its author:', 'Why 0 by default?']
    ])
    expect(pullRequestSection(prFacts(), {}).quotes).toHaveLength(1)
  })
})

function pushedFacts(change: Record<string, unknown> = {}): PushFacts {
  const read = factsFromEvent('push', { ...pushToMain(), ...change }, 'acme/widgets').facts
  if (read.kind !== 'push') throw new Error('not a push')
  return read
}

describe('pushSection', () => {
  it('names the push, its ref, commits and compare link', () => {
    const plan = pushSection(pushedFacts(), {})
    expect(plan.identity).toBe('Push to `refs/heads/main` in `acme/widgets`')
    expect(plan.facts).toEqual([
      '- Before → after: `1a2b3c4` → `5d6e7f8`',
      '- Compare: `https://github.com/acme/widgets/compare/1a2b3c4d5e6f...5d6e7f8091a2`',
      '- Pushed by: `mona`'
    ])
    expect(plan.commits?.list.items).toEqual([
      '- `bbbbbbb` `Document retries` by `Hubot`',
      '- `aaaaaaa` `Add retries` by `mona`'
    ])
  })

  it.each([
    [
      { before: NO_COMMIT, created: true },
      '- Created: this push created the branch, so there is no earlier commit to compare with'
    ],
    [{ after: NO_COMMIT, deleted: true }, '- Deleted: this push deleted the branch, so there is nothing to diff'],
    [{ forced: true }, "- Forced: this push rewrote the branch's history"],
    [
      { ref: 'refs/tags/v2.4.0', before: NO_COMMIT },
      '- Created: this push created the tag, so there is no earlier commit to compare with'
    ]
  ])('says what the push did: %j', (change, line) => {
    expect(pushSection(pushedFacts(change), {}).facts).toContain(line)
  })

  it("lists the compare API's commits over the payload's, and counts all of them", () => {
    const commits = [{ sha: 'c'.repeat(40), message: 'From the compare API', author: 'mona' }]
    const plan = pushSection(pushedFacts({ size: 3 }), { commits, commitsTotal: 260 })
    expect(plan.commits?.list.items).toEqual(['- `ccccccc` `From the compare API` by `mona`'])
    expect(plan.commits?.total).toBe(260)
  })

  it('names the head commit when there are no commits to list, as for a tag', () => {
    const plan = pushSection(pushedFacts({ ref: 'refs/tags/v1', commits: [] }), {})
    expect(plan.commits).toBeUndefined()
    expect(plan.facts).toContain('- Head commit: `bbbbbbb` `Document retries` by `Hubot`')
  })
})

function issueFactsOf(event = 'issue_comment'): IssueFacts {
  const read = factsFromEvent(event, commentOnPullRequest(), 'acme/widgets').facts
  if (read.kind !== 'issue') throw new Error('not an issue')
  return read
}

describe('issueSection', () => {
  it('names a pull request conversation and the comment that started the run, and quotes both', () => {
    const plan = issueSection(issueFactsOf())
    expect(plan.identity).toBe('Pull request #77 in `acme/widgets` (a comment on its conversation)')
    expect(plan.facts).toEqual([
      '- Title: `Retry on 502`',
      '- URL: `https://github.com/acme/widgets/pull/77`',
      '- Author: `octocat`',
      '- Comment that started this run: by `mona`, `https://github.com/acme/widgets/pull/77#issuecomment-1`'
    ])
    expect(plan.quotes.map((quote) => [quote.label, quote.content])).toEqual([
      ['Pull request body, as written by its author:', 'Retries 502s.'],
      ['Comment that started this run, as written by its author:', '/docs document the new option']
    ])
  })

  it("lists a pull request conversation's files when they were read", () => {
    const files = [
      { path: 'src/retry.ts', status: 'modified' as const, additions: 3, deletions: 1, patch: '@@ -1 +1 @@' }
    ]
    const plan = issueSection(issueFactsOf(), { files })
    expect(plan.files?.total).toBe(1)
    expect(plan.files?.diffs).toHaveLength(1)
    expect(issueSection(issueFactsOf()).files).toBeUndefined()
  })

  it('names an issue, without a comment for an issues event', () => {
    const plan = issueSection({ ...issueFactsOf('issues'), isPullRequest: false, body: '' })
    expect(plan.identity).toBe('Issue #77 in `acme/widgets`')
    expect(plan.quotes).toEqual([
      { label: 'Issue body, as written by its author:', content: '', ifEmpty: 'The issue has no body.' }
    ])
  })
})

describe('releaseSection', () => {
  it('names the release and its flags, and quotes its notes', () => {
    const facts = factsFromEvent('release', publishedRelease(), 'acme/widgets').facts
    if (facts.kind !== 'release') throw new Error('not a release')
    expect(releaseSection(facts)).toEqual({
      identity: 'Release `v2.4.0` in `acme/widgets`, a pre-release',
      facts: [
        '- Name: `Retries`',
        '- URL: `https://github.com/acme/widgets/releases/tag/v2.4.0`',
        '- Author: `octocat`'
      ],
      commits: undefined,
      files: undefined,
      quotes: [
        {
          label: 'Release notes, as written by their author:',
          content: '## What is new\n\n- `retries` option',
          ifEmpty: 'The release has no notes.'
        }
      ]
    })
    expect(releaseSection({ ...facts, draft: true, prerelease: false }).identity).toBe(
      'Release `v2.4.0` in `acme/widgets`, a draft'
    )
  })
})
