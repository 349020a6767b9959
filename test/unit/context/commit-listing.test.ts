import { describe, expect, it } from 'vitest'
import type { Commit } from '../../../src/context/change-facts.ts'
import { commitLine, commitListing, MAX_COMMITS_LISTED } from '../../../src/context/commit-listing.ts'

const commit = (n: number): Commit => ({
  sha: `${n}`.padStart(40, 'a'),
  message: `Commit ${n}\n\nDetails`,
  author: 'mona'
})

describe('commitLine', () => {
  it('is the short sha, the first line of the message and the author', () => {
    expect(commitLine(commit(7))).toBe('`aaaaaaa` `Commit 7` by `mona`')
  })

  it('says when there is no message, and leaves out an unknown author', () => {
    expect(commitLine({ sha: 'abcdef0123', message: '', author: '' })).toBe('`abcdef0` (no message)')
  })
})

describe('commitListing', () => {
  it('lists the commits newest first', () => {
    const listing = commitListing([commit(1), commit(2)], undefined)
    expect(listing.list.heading).toBe('### Commits (2, newest first)')
    expect(listing.list.items.map((item) => /Commit \d+/.exec(item)?.[0])).toEqual(['Commit 2', 'Commit 1'])
  })

  it('lists the latest 50 and counts the earlier ones, with those not listed at all', () => {
    const commits = Array.from({ length: 60 }, (_, i) => commit(i + 1))
    const listing = commitListing(commits, 250)
    expect(listing.list.items).toHaveLength(MAX_COMMITS_LISTED)
    expect(listing.list.items[0]).toContain('Commit 60')
    expect(listing.list.items.at(-1)).toContain('Commit 11')
    expect(listing.total).toBe(250)
    expect(listing.list.alreadyLeftOut).toBe(200)
    expect(listing.list.leftOutNote(200)).toBe('- … 200 earlier commits left out')
  })
})
