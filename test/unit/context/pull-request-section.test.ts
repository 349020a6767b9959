import { describe, expect, it } from 'vitest'
import type { PullRequestFacts } from '../../../src/context/change-facts.ts'
import { factsFromEvent } from '../../../src/context/facts-from-event.ts'
import { pullRequestSection } from '../../../src/context/pull-request-section.ts'
import { mergedPullRequest } from './event-payloads.ts'

function facts(change: Partial<PullRequestFacts> = {}): PullRequestFacts {
  const read = factsFromEvent('pull_request', mergedPullRequest(), 'acme/widgets').facts
  if (read.kind !== 'pull-request') throw new Error('not a pull request')
  return { ...read, ...change }
}

describe('pullRequestSection', () => {
  it('names the pull request and its state, then its facts', () => {
    const plan = pullRequestSection(facts(), {})
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
    expect(pullRequestSection(facts(change), {}).identity).toBe(`Pull request #128 in \`acme/widgets\`, ${state}`)
  })

  it("names a fork's repository after its branch, and leaves out what is unknown", () => {
    const plan = pullRequestSection(
      facts({
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
    const line = pullRequestSection(facts({ labels }), {}).facts.find((fact) => fact.startsWith('- Labels'))
    expect(line).toMatch(/`l19` and 5 more$/)
  })

  it('quotes the body without its HTML comment, and lists the files when read', () => {
    const plan = pullRequestSection(facts(), {
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
    expect(pullRequestSection(facts(), {}).files).toBeUndefined()
  })
})
