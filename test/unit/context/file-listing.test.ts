import { describe, expect, it } from 'vitest'
import type { ChangedFile } from '../../../src/context/fetched-changes.ts'
import { fileListing, MAX_FILES_LISTED } from '../../../src/context/file-listing.ts'

const file = (path: string, more: Partial<ChangedFile> = {}): ChangedFile => ({
  path,
  status: 'modified',
  additions: 3,
  deletions: 1,
  patch: '@@ -1 +1 @@\n-a\n+b',
  ...more
})

describe('fileListing', () => {
  it('lists each file with its status and line counts, and why a diff is skipped', () => {
    const listing = fileListing(
      [
        file('src/client.ts'),
        file('docs/new.md', {
          status: 'renamed',
          previousPath: 'docs/old.md',
          additions: 0,
          deletions: 0,
          patch: undefined
        }),
        file('logo.png', { status: 'added', additions: 0, deletions: 0, patch: undefined }),
        file('package-lock.json', { additions: 40, deletions: 12 }),
        file('dist/index.js')
      ],
      undefined
    )
    expect(listing.list.heading).toBe('### Changed files (5)')
    expect(listing.list.items).toEqual([
      '- modified `src/client.ts` (+3 -1)',
      '- renamed `docs/new.md` from `docs/old.md` (+0 -0), no diff from GitHub (binary, too large or unchanged)',
      '- added `logo.png` (+0 -0), no diff from GitHub (binary, too large or unchanged)',
      '- modified `package-lock.json` (+40 -12), diff skipped: lock file',
      '- modified `dist/index.js` (+3 -1), diff skipped: build output'
    ])
    expect(listing.skipped).toEqual({ generated: 2, noPatch: 2 })
    expect(listing.diffs).toEqual([{ index: 0, label: 'Diff of `src/client.ts`:', patch: '@@ -1 +1 @@\n-a\n+b' }])
  })

  it('lists the first 300 files and counts the rest, and those GitHub did not list', () => {
    const files = Array.from({ length: 320 }, (_, i) => file(`src/f${i}.ts`))
    const listing = fileListing(files, 400)
    expect(listing.list.items).toHaveLength(MAX_FILES_LISTED)
    expect(listing.total).toBe(400)
    expect(listing.list.alreadyLeftOut).toBe(100)
    expect(listing.list.leftOutNote(100)).toBe('- … 100 more files left out')
    expect(listing.diffs.at(-1)?.index).toBe(299)
  })

  it('sanitizes the diff, and skips one left empty', () => {
    const listing = fileListing(
      [file('a.ts', { patch: '@@ -1 +1 @@\r\n-x\u202E\r\n+y' }), file('b.ts', { patch: '\u200B' })],
      2
    )
    expect(listing.diffs).toEqual([{ index: 0, label: 'Diff of `a.ts`:', patch: '@@ -1 +1 @@\n-x\n+y' }])
    expect(listing.skipped.noPatch).toBe(1)
  })

  it('names a status GitHub adds later plainly', () => {
    const odd = { ...file('a.ts'), status: 'unknown-to-us' } as unknown as ChangedFile
    expect(fileListing([odd], 1).list.items[0]).toBe('- changed `a.ts` (+3 -1)')
  })

  it('shows a line count GitHub did not give as a question mark', () => {
    const listing = fileListing([file('a.ts', { additions: undefined, deletions: 2 })], 1)
    expect(listing.list.items[0]).toBe('- modified `a.ts` (+? -2)')
  })
})
