import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CAPS, readWorkTree, WordTable } from '../../../src/after-job/corpus.ts'

describe('WordTable', () => {
  it('holds identifiers and dashed words, and nothing across other characters', () => {
    const table = new WordTable()
    table.addText(Buffer.from("program.option('--dry-run', 'x') // API_TIMEOUT_MS=5 a--b café"))
    expect(
      ['program', 'option', 'dry-run', 'dry', 'run', 'API_TIMEOUT_MS', 'a', 'b', 'caf'].map((word) => table.has(word))
    ).toEqual([true, true, true, true, true, true, true, true, true])
    expect(['program.option', 'a--b', 'dryRun', 'API', 'café', 'x y'].map((word) => table.has(word))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false
    ])
  })

  it('keeps every word as it grows past its first table', () => {
    const table = new WordTable()
    const words = Array.from({ length: 100_000 }, (_unused, index) => `name${index.toString(36)}`)
    table.addText(Buffer.from(words.join(' ')))
    expect(table.size).toBe(100_000)
    expect(words.every((word) => table.has(word))).toBe(true)
    expect(table.has('name_missing')).toBe(false)
  })
})

describe('readWorkTree', () => {
  let root = ''
  afterEach(() => {
    rmSync(root, { recursive: true, force: true })
  })

  function workTree(files: Record<string, string | Buffer>): string {
    root = mkdtempSync(join(tmpdir(), 'grounding-tree-'))
    execFileSync('git', ['init', '-q', root])
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true })
      writeFileSync(join(root, path), content)
    }
    return root
  }

  it('reads the files git tracks: not untracked ones, links, binaries, huge files or skipped ones', async () => {
    const tree = workTree({
      'src/users.ts': 'export function deleteOne() {}',
      'docs/guide.md': 'deleteMany',
      'image.bin': Buffer.from([1, 0, 2, 0]),
      'big.txt': `hugeWord ${'x'.repeat(CAPS.fileBytes)}`
    })
    symlinkSync('/etc/hostname', join(tree, 'linked'))
    execFileSync('git', ['-C', tree, 'add', '-A'])
    writeFileSync(join(tree, 'untracked.ts'), 'strayWord')
    const result = await readWorkTree(tree, { skip: (path) => path.endsWith('.md') })
    expect(result.kind).toBe('read')
    if (result.kind !== 'read') return
    expect(['deleteOne', 'deleteMany', 'strayWord', 'hugeWord'].map((word) => result.corpus.words.has(word))).toEqual([
      true,
      false,
      false,
      false
    ])
    expect(result.corpus).toMatchObject({ files: 1, skipped: 3 })
    expect([...result.corpus.languages]).toEqual(['javascript'])
  })

  it('stops, unchecked with the reason, past the cap on files, and where git finds no work tree', async () => {
    const tree = workTree({ 'a.ts': 'a', 'b.ts': 'b', 'c.ts': 'c' })
    execFileSync('git', ['-C', tree, 'add', '-A'])
    expect(await readWorkTree(tree, { caps: { ...CAPS, files: 2 } })).toEqual({
      kind: 'unchecked',
      reason: 'the checkout has more than 2 text files'
    })
    rmSync(join(tree, '.git'), { recursive: true })
    const outside = await readWorkTree(tree, { what: 'the workspace' })
    expect(outside.kind === 'unchecked' && outside.reason).toMatch(/^the workspace could not be listed with git \(/)
  })
})
