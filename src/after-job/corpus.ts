// The words of a code base, indexed once so that each name is looked up in constant time: every identifier (a run of
// ASCII letters, digits and `_`) and every dashed word (such a run joined by inner `-`, as in `dry-run`), kept as a
// pair of 32-bit hashes in one open-addressed table. Scanning bytes and keeping hashes, not strings, keeps the index
// within a small factor of grep over the same files. Two different words share both hashes with a chance of about one
// in 2^64 per lookup: a false "found" that no reader will ever meet.

import { execFile } from 'node:child_process'
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { setImmediate as turn } from 'node:timers/promises'
import { promisify } from 'node:util'
import { errorMessage, forLog } from '../text/untrusted.ts'
import { languageOfPath } from './vocabulary.ts'

/** Byte classes: 1 for a word byte (A-Z, a-z, 0-9, _), 2 for `-`, 0 for anything else. */
const CLASS = new Uint8Array(256)
for (let byte = 0; byte < 256; byte++) {
  const char = String.fromCharCode(byte)
  CLASS[byte] = /[A-Za-z0-9_]/.test(char) ? 1 : char === '-' ? 2 : 0
}

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const SECOND_OFFSET = 0x9747b28c
const SECOND_PRIME = 0x5bd1e995

export interface WordIndex {
  /** Whether the word (ASCII letters, digits, `_` and inner `-`) occurs in the indexed text. */
  has(word: string): boolean
  /** How many distinct words it holds. */
  readonly size: number
}

/** An index words are added to, text after text. */
export class WordTable implements WordIndex {
  private slots = new Uint32Array(1 << 16)
  private count = 0

  get size(): number {
    return this.count
  }

  has(word: string): boolean {
    let first = FNV_OFFSET
    let second = SECOND_OFFSET
    for (let at = 0; at < word.length; at++) {
      const code = word.charCodeAt(at)
      if (code > 127) return false
      first = Math.imul(first ^ code, FNV_PRIME)
      second = Math.imul(second ^ code, SECOND_PRIME)
    }
    return this.find(first >>> 0 || 1, second >>> 0) >= 0
  }

  /** Adds every identifier and dashed word of `bytes`, read as ASCII (other bytes separate words). */
  addText(bytes: Uint8Array): void {
    const length = bytes.length
    let at = 0
    while (at < length) {
      while (at < length && CLASS[bytes[at] as number] !== 1) at++
      const from = at
      let dashed = false
      while (at < length) {
        let byte = bytes[at] as number
        let first = FNV_OFFSET
        let second = SECOND_OFFSET
        do {
          first = Math.imul(first ^ byte, FNV_PRIME)
          second = Math.imul(second ^ byte, SECOND_PRIME)
          byte = bytes[++at] ?? 0
        } while (CLASS[byte] === 1)
        this.add(first >>> 0 || 1, second >>> 0)
        // A `-` between two words joins them into a dashed word as well.
        if (byte !== 0x2d || CLASS[bytes[at + 1] ?? 0] !== 1) break
        dashed = true
        at++
      }
      if (dashed) this.addDashed(bytes, from, at)
    }
  }

  /** Adds the dashed word `bytes[from, to)`. */
  private addDashed(bytes: Uint8Array, from: number, to: number): void {
    let first = FNV_OFFSET
    let second = SECOND_OFFSET
    for (let at = from; at < to; at++) {
      const byte = bytes[at] as number
      first = Math.imul(first ^ byte, FNV_PRIME)
      second = Math.imul(second ^ byte, SECOND_PRIME)
    }
    this.add(first >>> 0 || 1, second >>> 0)
  }

  /** The slot holding the pair, or -1. */
  private find(first: number, second: number): number {
    const mask = (this.slots.length >>> 1) - 1
    for (let slot = first & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot * 2] ?? 0
      if (held === 0) return -1
      if (held === first && this.slots[slot * 2 + 1] === second) return slot
    }
  }

  private add(first: number, second: number): void {
    const slots = this.slots
    const mask = (slots.length >>> 1) - 1
    for (let slot = first & mask; ; slot = (slot + 1) & mask) {
      const held = slots[slot * 2] ?? 0
      if (held === first && slots[slot * 2 + 1] === second) return
      if (held === 0) {
        slots[slot * 2] = first
        slots[slot * 2 + 1] = second
        this.count++
        if (this.count * 2 > mask) this.grow()
        return
      }
    }
  }

  private grow(): void {
    const old = this.slots
    this.slots = new Uint32Array(old.length * 2)
    this.count = 0
    for (let slot = 0; slot < old.length; slot += 2) {
      const first = old[slot] ?? 0
      if (first !== 0) this.add(first, old[slot + 1] ?? 0)
    }
  }
}

/** How much of a code base is read before the check gives up and says so. */
export interface Caps {
  /** Text files indexed, at most. */
  readonly files: number
  /** Bytes of text indexed, at most. */
  readonly bytes: number
  /** A file larger than this is skipped, as a binary is. */
  readonly fileBytes: number
}

const MIB = 1024 * 1024
export const CAPS: Caps = { files: 50_000, bytes: 256 * MIB, fileBytes: MIB }

/** A size in words: whole MiB, or bytes below one. */
export function sizeWords(bytes: number): string {
  return bytes >= MIB ? `${Math.round(bytes / MIB)} MiB` : `${bytes} bytes`
}

/** A code base read into an index, or why it was not. */
export type CorpusRead =
  { readonly kind: 'read'; readonly corpus: Corpus } | { readonly kind: 'unchecked'; readonly reason: string }

export interface Corpus {
  readonly words: WordIndex
  /** The languages its files are written in (`javascript`, `python`...). */
  readonly languages: ReadonlySet<string>
  /** Text files indexed. */
  readonly files: number
  readonly bytes: number
  /** Files skipped: binaries, files over the size cap, links, and (in a tarball) entries refused. */
  readonly skipped: number
}

/** Git's own test: a NUL byte in the first 8,000 bytes makes a file binary. */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0)
}

/** Adds files to an index within the caps; `what` names the code base in the reason a cap gives. */
export class CorpusBuilder {
  private readonly table = new WordTable()
  private readonly languages = new Set<string>()
  private files = 0
  private bytes = 0
  private skips = 0
  private readonly caps: Caps
  private readonly what: string

  constructor(caps: Caps, what: string) {
    this.caps = caps
    this.what = what
  }

  /** Counts a file that is not read. */
  skip(): void {
    this.skips++
  }

  /** Adds a file's text; the reason, past a cap. */
  add(path: string, bytes: Uint8Array): string | undefined {
    if (bytes.length > this.caps.fileBytes || isBinary(bytes)) {
      this.skips++
      return undefined
    }
    if (this.files + 1 > this.caps.files) return `${this.what} has more than ${this.caps.files} text files`
    if (this.bytes + bytes.length > this.caps.bytes) {
      return `${this.what} holds more than ${sizeWords(this.caps.bytes)} of text`
    }
    this.files++
    this.bytes += bytes.length
    this.table.addText(bytes)
    const language = languageOfPath(path)
    if (language !== undefined) this.languages.add(language)
    return undefined
  }

  result(): Corpus {
    return { words: this.table, languages: this.languages, files: this.files, bytes: this.bytes, skipped: this.skips }
  }
}

// The code from the workflow's checkout: the files git tracks in the work tree, read where they lie. Links and
// anything but a regular file are skipped (a tracked link is not followed), and so are binaries and files over the
// size cap; the read stops at the caps on files and bytes.

/** Files read between turns of the event loop, so that a cancel's signal is heard while a large tree is read. */
const FILES_PER_TURN = 500

export interface TreeOptions {
  readonly caps?: Caps
  /** Files not to read (the docs themselves, when they live with the code). */
  readonly skip?: (path: string) => boolean
  /** The code base's name in a reason, such as "the checkout". */
  readonly what?: string
}

/** The tracked text files of the git work tree at `root`, indexed; or why they could not be. */
export async function readWorkTree(root: string, options: TreeOptions = {}): Promise<CorpusRead> {
  const caps = options.caps ?? CAPS
  const what = options.what ?? 'the checkout'
  let paths: string[]
  try {
    paths = await trackedFiles(root, caps)
  } catch (error) {
    return { kind: 'unchecked', reason: `${what} could not be listed with git (${forLog(errorMessage(error), 200)})` }
  }
  const builder = new CorpusBuilder(caps, what)
  const buffer = Buffer.allocUnsafe(caps.fileBytes + 1)
  for (const [index, path] of paths.entries()) {
    if (index % FILES_PER_TURN === FILES_PER_TURN - 1) await turn()
    if (options.skip?.(path)) continue
    const bytes = readRegularFile(join(root, path), buffer)
    if (bytes === undefined) {
      builder.skip()
      continue
    }
    const reason = builder.add(path, bytes)
    if (reason !== undefined) return { kind: 'unchecked', reason }
  }
  return { kind: 'read', corpus: builder.result() }
}

async function trackedFiles(root: string, caps: Caps): Promise<string[]> {
  const { stdout } = await promisify(execFile)('git', ['-C', root, 'ls-files', '-z', '--cached'], {
    encoding: 'buffer',
    // Far more than the names of as many files as the cap allows.
    maxBuffer: Math.max(64 * 1024 * 1024, caps.files * 1024)
  })
  return stdout
    .toString('utf8')
    .split('\0')
    .filter((path) => path !== '')
}

/**
 * The file's bytes, read into `buffer` (one larger than the size cap, so that a larger file shows as such); undefined
 * for a link, anything but a regular file, or a file that cannot be read.
 */
function readRegularFile(path: string, buffer: Buffer): Uint8Array | undefined {
  let descriptor: number
  try {
    descriptor = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW)
  } catch {
    return undefined
  }
  try {
    if (!fstatSync(descriptor).isFile()) return undefined
    const length = readSync(descriptor, buffer, 0, buffer.length, 0)
    return buffer.subarray(0, length)
  } catch {
    return undefined
  } finally {
    closeSync(descriptor)
  }
}
