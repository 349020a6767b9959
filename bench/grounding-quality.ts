// The grounding check's quality on real code and docs nobody here wrote: published npm packages, their README as the
// docs and their files as the code. Sections are taken out of each README to make the docs before a change, and put
// back as the agent's change: a clean change, whose names should all be found. Then names that exist nowhere (a real
// name of the code changed by a letter or a word) are put into the sections put back, and should all be reported.
import { execFileSync } from 'node:child_process'
import { createReadStream, existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Parser, type ReadEntry } from 'tar'
import type { ChangedFile } from '../src/github/change.ts'
import { type Corpus, WordTable } from '../src/after-job/corpus.ts'
import { isMarkdownPath, readDocsChange } from '../src/after-job/docs-change.ts'
import { readTarball } from '../src/after-job/corpus-tarball.ts'
import { groundingVerdict } from '../src/after-job/grounding-verdict.ts'
import { seededRandom } from '../test/unit/support/seeded-random.ts'
import { inject } from './grounding-inject.ts'

/** Pinned: the same files every run. Libraries, command-line tools, servers and clients, in several styles. */
export const PACKAGES = [
  'commander@12.1.0',
  'yargs@17.7.2',
  'minimist@1.2.8',
  'dotenv@16.4.5',
  'debug@4.3.7',
  'axios@1.7.7',
  'express@4.21.1',
  'koa@2.15.3',
  'chalk@5.3.0',
  'ws@8.18.0',
  'semver@7.6.3',
  'uuid@10.0.0',
  'nodemon@3.1.7',
  'http-server@14.1.1',
  'jsonwebtoken@9.0.2',
  'cors@2.8.5',
  'morgan@1.10.0',
  'lru-cache@11.0.1',
  'glob@11.0.0',
  'node-gyp@10.2.0',
  'body-parser@1.20.3',
  'helmet@8.0.0',
  'json-server@0.17.4',
  'ioredis@5.4.1',
  'yaml@2.6.0',
  'ky@1.7.2',
  'p-queue@8.0.1',
  'cross-env@7.0.3',
  'pino@9.5.0'
]

/** Outside git (node_modules is ignored): fetched once with `npm pack`, then read from here. */
export const CACHE = join(import.meta.dirname, '..', 'node_modules', '.cache', 'grounding-bench')

/** The package's tarball in the cache, fetched with `npm pack` when it is not there yet. */
export function packed(spec: string): string {
  const file = join(CACHE, `${spec.replace(/^@/, '').replace('/', '-').replace('@', '-')}.tgz`)
  if (!existsSync(file)) {
    mkdirSync(CACHE, { recursive: true })
    execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', CACHE], {
      stdio: ['ignore', 'ignore', 'inherit']
    })
  }
  return file
}

/** The README's text from a package's tarball. */
async function readmeOf(file: string): Promise<string> {
  let text = ''
  const parser = new Parser({
    filter: (path) => /^package\/readme\.(?:md|markdown)$/i.test(path),
    onReadEntry: (entry: ReadEntry) => {
      entry.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    }
  })
  for await (const chunk of createReadStream(file)) parser.write(chunk as Buffer)
  await new Promise<void>((resolve) => {
    parser.end(() => {
      resolve()
    })
  })
  return text
}

interface Sections {
  /** The README's lines. */
  readonly lines: readonly string[]
  /** Which lines the change adds: the sections taken out. */
  readonly added: ReadonlySet<number>
}

/** Every other section that holds code, taken out: a heading up to the next heading. */
export function takeSections(text: string): Sections {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const starts: number[] = []
  let fence: string | undefined
  for (const [index, line] of lines.entries()) {
    const marks = /^\s*(`{3,}|~{3,})/.exec(line)?.[1]
    if (marks) fence = fence === undefined ? marks : marks.startsWith(fence) ? undefined : fence
    else if (fence === undefined && /^#{1,6}\s/.test(line)) starts.push(index)
  }
  const withCode = starts.filter((start, at) =>
    lines.slice(start, starts[at + 1] ?? lines.length).some((line) => line.includes('`'))
  )
  const added = new Set<number>()
  // The second, fourth... section with code; the only one, when there is one.
  for (const [index, start] of withCode.entries()) {
    if (index % 2 !== 1 && withCode.length > 1) continue
    const end = starts[starts.indexOf(start) + 1] ?? lines.length
    for (let line = start; line < end; line++) added.add(line)
  }
  return { lines, added }
}

/** A unified diff that adds the lines in `added` to the rest, with three lines of context, as GitHub shows one. */
export function insertionPatch(lines: readonly string[], added: ReadonlySet<number>): string {
  const hunks: string[] = []
  let at = 0
  const oldBefore = (index: number): number => index - [...added].filter((line) => line < index).length
  while (at < lines.length) {
    if (!added.has(at)) {
      at++
      continue
    }
    const from = Math.max(0, at - 3)
    let to = at
    // A hunk runs on while the next added line is within six lines of context.
    for (let next = at; next < lines.length && next <= to + 6; next++) if (added.has(next)) to = next
    const end = Math.min(lines.length - 1, to + 3)
    const body = lines.slice(from, end + 1).map((line, offset) => `${added.has(from + offset) ? '+' : ' '}${line}`)
    const oldLine = oldBefore(from) + 1
    const oldCount = body.filter((line) => line.startsWith(' ')).length
    hunks.push(`@@ -${oldLine},${oldCount} +${from + 1},${body.length} @@\n${body.join('\n')}`)
    at = end + 1
  }
  return hunks.join('\n')
}

export interface PackageQuality {
  readonly spec: string
  /** Names the clean change adds, and how many of them were not found. */
  readonly names: number
  readonly ungrounded: readonly string[]
  /** Names put in that exist nowhere, and how many of them were reported. */
  readonly injected: readonly string[]
  readonly missed: readonly string[]
}

function docsIndex(lines: readonly string[], skip: ReadonlySet<number>): Corpus {
  const words = new WordTable()
  words.addText(Buffer.from(lines.filter((_line, index) => !skip.has(index)).join('\n')))
  return { words, languages: new Set(), files: 1, bytes: 0, skipped: 0 }
}

const change = (patch: string): ChangedFile[] => [
  { path: 'README.md', status: 'modified', additions: undefined, deletions: undefined, patch }
]

/** One package: its clean change, then the same change with names that exist nowhere put in. */
export async function measurePackage(spec: string, injections: number): Promise<PackageQuality> {
  const file = packed(spec)
  const code = await readTarball(createReadStream(file), { skip: isMarkdownPath })
  const readme = await readmeOf(file)
  const { lines, added } = takeSections(readme)
  const docsBefore = { kind: 'read' as const, corpus: docsIndex(lines, added) }
  const clean = groundingVerdict({ files: change(insertionPatch(lines, added)), code, docsBefore, ignore: '' })
  if (clean.kind === 'unchecked' || code.kind === 'unchecked') throw new Error(`${spec}: unchecked`)
  const whole = new WordTable()
  whole.addText(Buffer.from(readme))
  const injected = inject(lines, added, [code.corpus.words, whole], seededRandom(spec.length * 7919), injections)
  const dirty = groundingVerdict({ files: change(insertionPatch(injected.lines, added)), code, docsBefore, ignore: '' })
  // A name put in is reported when a name reported holds it (`--msvt_version` holds `msvt`).
  const reported = dirty.kind === 'ungrounded' ? dirty.findings.map((finding) => finding.name) : []
  const isReported = (name: string): boolean =>
    reported.some((shown) => new RegExp(`(?:^|[^A-Za-z0-9])${name}(?:$|[^A-Za-z0-9])`).test(shown))
  if (process.env['SHOW_MISSED']) {
    for (const name of injected.names.filter((name) => !isReported(name))) {
      console.log(
        `   MISSED ${name}: ${
          injected.lines
            .find((line) => line.includes(name))
            ?.trim()
            .slice(0, 160) ?? ''
        }`
      )
      const docs = readDocsChange(change(insertionPatch(injected.lines, added)))
      const piece = docs.pieces.find((candidate) => candidate.text.includes(name))
      console.log(
        `      piece: ${piece ? `${piece.block ? `[${piece.block.language}]` : 'inline'} ${piece.text.slice(0, 80)}` : 'none'}`
      )
    }
  }
  return {
    spec,
    names: clean.names,
    ungrounded: clean.kind === 'ungrounded' ? clean.findings.map((finding) => finding.name) : [],
    injected: injected.names,
    missed: injected.names.filter((name) => !isReported(name))
  }
}
