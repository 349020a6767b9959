import { describe, expect, it } from 'vitest'
import type { GitHubClient } from '../../../src/github/octokit.ts'
import { listMerged, mergedBy } from '../../../src/github/merged-pulls.ts'

const HOUR = 3_600_000
const NOW = Date.parse('2026-11-22T09:00:00Z')
const AT = { owner: 'acme', repo: 'api', redact: (text: string) => text }
const shaOf = (n: number): string => n.toString(16).padStart(40, 'c')

/** Pull request `n`, merged into `base` and last updated `n` hours ago. */
const pull = (n: number, base = 'main') => {
  const at = new Date(NOW - n * HOUR).toISOString()
  return { number: n, merged_at: at, updated_at: at, merge_commit_sha: shaOf(n), base: { ref: base } }
}

/** A client that lists these pull requests 100 a page, as GitHub does, and these for any commit. */
function client(listed: unknown[], byCommit: unknown[] = []): GitHubClient & { pages: () => number } {
  let pages = 0
  const octokit = {
    paginate: {
      iterator: async function* () {
        for (let start = 0; start < listed.length; start += 100) {
          pages += 1
          yield await Promise.resolve({ data: listed.slice(start, start + 100), headers: {} })
        }
      }
    },
    rest: {
      pulls: { list: () => undefined },
      repos: { listPullRequestsAssociatedWithCommit: () => Promise.resolve({ data: byCommit }) }
    }
  }
  return { octokit, pages: () => pages } as unknown as GitHubClient & { pages: () => number }
}

describe('listMerged', () => {
  it('is complete once a page reaches pull requests updated before the start, and reads no further', async () => {
    const github = client(Array.from({ length: 300 }, (_, n) => pull(n + 1)))
    const listed = await listMerged(github, AT, 'main', NOW - 150.5 * HOUR)
    expect(listed.complete).toBe(true)
    expect(listed.pulls.map((found) => found.facts.number)).toEqual(Array.from({ length: 150 }, (_, n) => n + 1))
    expect(github.pages()).toBe(2)
  })

  it('is not complete when ten pages hold only pull requests updated since the start: any merged since may be past them', async () => {
    const github = client(Array.from({ length: 1050 }, (_, n) => pull(n + 1)))
    const listed = await listMerged(github, AT, 'main', NOW - 2000 * HOUR)
    expect(listed).toMatchObject({ complete: false })
    expect(listed.pulls).toHaveLength(1000)
  })
})

describe('mergedBy', () => {
  it('is the pull request whose merge commit the commit is, into this branch; not one it merely belongs to', async () => {
    const into = client([], [{ ...pull(8), merge_commit_sha: shaOf(9) }, pull(7, 'release'), pull(7)])
    expect((await mergedBy(into, AT, shaOf(7), 'main'))?.facts.number).toBe(7)
    expect(await mergedBy(into, AT, shaOf(8), 'main')).toBeUndefined()
  })
})
