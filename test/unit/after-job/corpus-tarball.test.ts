import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { readTarball, TARBALL_CAPS, type TarballCaps } from '../../../src/after-job/corpus-tarball.ts'
import { tarball } from '../../../sim/tarball.ts'

const read = (archive: Buffer, caps: Partial<TarballCaps> = {}) =>
  readTarball(Readable.from([archive]), { caps: { ...TARBALL_CAPS, ...caps } })

describe('readTarball', () => {
  it("indexes the text files under the archive's top folder, and the languages of the code", async () => {
    const result = await read(
      tarball([
        { path: 'acme-sdk-1a2b3c/', type: '5' },
        { path: 'acme-sdk-1a2b3c/src/users.ts', content: 'export function deleteOne(id) {}' },
        { path: 'acme-sdk-1a2b3c/cli/main.py', content: "parser.add_argument('--dry-run')" },
        { path: 'acme-sdk-1a2b3c/logo.png', content: Buffer.from([0x89, 0x50, 0x00, 0x47]) }
      ])
    )
    expect(result.kind).toBe('read')
    if (result.kind !== 'read') return
    expect(['deleteOne', 'dry-run', 'add_argument'].map((word) => result.corpus.words.has(word))).toEqual([
      true,
      true,
      true
    ])
    expect([...result.corpus.languages].sort()).toEqual(['javascript', 'python'])
    expect(result.corpus.files).toBe(2)
    expect(result.corpus.skipped).toBe(1)
  })

  it('refuses, entry by entry, paths out of the top folder, absolute paths, links and huge entries', async () => {
    const result = await read(
      tarball([
        { path: 'repo-abc/README', content: 'fine' },
        { path: 'repo-abc/../escapedWord.txt', content: 'escapedWord' },
        { path: 'other-top/strayWord.txt', content: 'strayWord' },
        { path: '/etc/absoluteWord', content: 'absoluteWord' },
        { path: 'repo-abc/link', type: '2', link: '/etc/passwd' },
        { path: 'repo-abc/hard', type: '1', link: 'repo-abc/README' },
        { path: 'repo-abc/huge.txt', content: `hugeWord ${'x'.repeat(5000)}` },
        { path: 'repo-abc/after.txt', content: 'afterWord' }
      ]),
      { fileBytes: 4096 }
    )
    expect(result.refused).toEqual({ outside: 3, links: 2, huge: 1 })
    expect(result.kind).toBe('read')
    if (result.kind !== 'read') return
    expect(['escapedWord', 'strayWord', 'absoluteWord', 'hugeWord'].some((word) => result.corpus.words.has(word))).toBe(
      false
    )
    expect(result.corpus.words.has('afterWord')).toBe(true)
  })

  it('reads a tarball whose first entry leaves the root as wholly outside it', async () => {
    const result = await read(tarball([{ path: '../evil.txt', content: 'evilWord' }]))
    expect(result.refused.outside).toBe(1)
    expect(result.kind === 'read' && result.corpus.words.has('evilWord')).toBe(false)
  })

  it('stops, unchecked with the reason, past the caps on files, text, the archive and what it unpacks to', async () => {
    const many = tarball(
      Array.from({ length: 12 }, (_unused, index) => ({ path: `r/f${index}.ts`, content: `word${index}` }))
    )
    expect(await read(many, { files: 10 })).toMatchObject({
      kind: 'unchecked',
      reason: "the repository's tarball has more than 10 text files"
    })
    expect(await read(many, { bytes: 40 })).toMatchObject({
      kind: 'unchecked',
      reason: "the repository's tarball holds more than 40 bytes of text"
    })
    expect(await read(many, { archiveBytes: 100 })).toMatchObject({
      kind: 'unchecked',
      reason: "the repository's tarball is larger than 100 bytes"
    })
    const bomb = tarball([{ path: 'r/zeros.txt', content: Buffer.alloc(3_000_000) }])
    expect(await read(bomb, { unpackedBytes: 1_000_000 })).toMatchObject({
      kind: 'unchecked',
      reason: "the repository's tarball unpacks to more than 1000000 bytes"
    })
  })

  it('says unchecked when what it is given is not a tarball', async () => {
    const result = await read(gzipSync(Buffer.from('<html>Not Found</html>'.repeat(100))))
    expect(result.kind).toBe('unchecked')
    if (result.kind === 'unchecked') expect(result.reason).toMatch(/^the repository's tarball could not be read: /)
  })
})
