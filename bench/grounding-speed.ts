// The check's speed on a code base of 10,000 files, next to `grep -rFwf names` over the same tree in the same run:
// the check reads the tracked files of a git work tree (as it reads the workflow's checkout), indexes them, and looks
// up the names a docs change adds; grep searches the same files for the same words. Then the same tree as a tarball,
// the way the check reads a repository when there is no checkout.
import { execFileSync, spawnSync } from 'node:child_process'
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { create } from 'tar'
import type { ChangedFile } from '../src/github/change.ts'
import { type CorpusRead, readWorkTree, WordTable } from '../src/after-job/corpus.ts'
import { readDocsChange } from '../src/after-job/docs-change.ts'
import { readTarball } from '../src/after-job/corpus-tarball.ts'
import { claimsOf, groundingVerdict } from '../src/after-job/grounding-verdict.ts'
import { seededRandom } from '../test/unit/support/seeded-random.ts'

const FILES = 10_000
const WORDS = `user client list get set delete many one request response handle config option value key token timeout
  retry stream buffer parse format render page item node tree path file read write open close error result data meta
  cache store query update create build run start stop event emit listen project job preview branch commit review`
  .split(/\s+/)
  .filter((word) => word !== '')

/** A made-up identifier of one to three words, camelCase. */
function identifier(random: () => number): string {
  const count = 1 + Math.floor(random() * 3)
  return Array.from({ length: count }, (_unused, index) => {
    const word = WORDS[Math.floor(random() * WORDS.length)] ?? 'x'
    return index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)
  }).join('')
}

/** A TypeScript-like source file of about 3 KB. */
function sourceFile(random: () => number): string {
  const lines = [`import { ${identifier(random)} } from './${identifier(random)}.ts'`, '']
  const functions = 3 + Math.floor(random() * 4)
  for (let index = 0; index < functions; index++) {
    lines.push(`export async function ${identifier(random)}(${identifier(random)}: string): Promise<void> {`)
    for (let line = 0; line < 5 + Math.floor(random() * 6); line++) {
      lines.push(
        `  const ${identifier(random)} = await ${identifier(random)}.${identifier(random)}('${identifier(random)}', { ${identifier(random)}: ${Math.floor(random() * 100)} })`
      )
    }
    lines.push('}', '')
  }
  return lines.join('\n')
}

/** A git work tree of 10,000 source files under a new temporary folder. */
function generateTree(): { root: string; tree: string; bytes: number } {
  const root = mkdtempSync(join(tmpdir(), 'grounding-speed-'))
  const tree = join(root, 'acme-sdk')
  const random = seededRandom(34)
  let bytes = 0
  for (let index = 0; index < FILES; index++) {
    const folder = join(tree, 'src', `area${index % 40}`, `part${index % 9}`)
    mkdirSync(folder, { recursive: true })
    const text = sourceFile(random)
    bytes += text.length
    writeFileSync(join(folder, `file${index}.ts`), text)
  }
  execFileSync('git', ['init', '-q', tree])
  execFileSync('git', ['-C', tree, 'add', '-A'])
  return { root, tree, bytes }
}

/** A docs change adding a page of 60 names: most of them in the code, some found nowhere. */
function docsChange(random: () => number): ChangedFile[] {
  const lines = ['# Reference', '']
  for (let index = 0; index < 60; index++) {
    const name = index % 5 === 4 ? `${identifier(random)}Nowhere${index}` : identifier(random)
    lines.push(index % 2 === 0 ? `Call \`client.${name}()\` to go on.` : `Set \`${name}\` in the options.`)
  }
  const patch = `@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}`
  return [{ path: 'docs/reference.mdx', status: 'added', additions: lines.length, deletions: 0, patch }]
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

export interface SpeedFigures {
  readonly files: number
  readonly bytes: number
  readonly names: number
  /** Medians, in milliseconds. */
  readonly checkMs: number
  readonly grepMs: number
  readonly tarballMs: number
  /** The tarball's size: what the check reads from GitHub when there is no checkout. */
  readonly tarballBytes: number
}

export async function measureSpeed(rounds = 5): Promise<SpeedFigures> {
  const { root, tree, bytes } = generateTree()
  try {
    const files = docsChange(seededRandom(7))
    const docsBefore: CorpusRead = {
      kind: 'read',
      corpus: { words: new WordTable(), languages: new Set(), files: 0, bytes: 0, skipped: 0 }
    }
    const words = claimsOf(readDocsChange(files), ['javascript'], '', () => true).flatMap((name) =>
      name.parts.map((part) => part.word)
    )
    const namesFile = join(root, 'names')
    writeFileSync(namesFile, [...new Set(words)].join('\n'))
    const archive = join(root, 'acme-sdk.tar.gz')
    await create({ gzip: true, cwd: root, file: archive, filter: (path) => !path.includes('/.git') }, ['acme-sdk'])
    const check: number[] = []
    const grep: number[] = []
    const tarball: number[] = []
    for (let round = 0; round < rounds; round++) {
      let started = performance.now()
      const verdict = groundingVerdict({ files, code: await readWorkTree(tree), docsBefore, ignore: '' })
      check.push(performance.now() - started)
      if (verdict.kind !== 'ungrounded')
        throw new Error(`the speed check's change should be ungrounded: ${verdict.kind}`)
      started = performance.now()
      spawnSync('grep', ['-rFwf', namesFile, '--exclude-dir=.git', tree], { maxBuffer: 1024 * 1024 * 1024 })
      grep.push(performance.now() - started)
      started = performance.now()
      const code = await readTarball(createReadStream(archive))
      groundingVerdict({ files, code, docsBefore, ignore: '' })
      tarball.push(performance.now() - started)
    }
    return {
      files: FILES,
      bytes,
      names: new Set(words).size,
      checkMs: median(check),
      grepMs: median(grep),
      tarballMs: median(tarball),
      tarballBytes: statSync(archive).size
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
