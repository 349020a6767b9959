// The code from a repository's tarball, as GitHub serves it (gzip, every file under one top folder), streamed through
// node-tar's parser and never written anywhere: each text file is held in memory only while it is indexed. An entry
// is refused on its own (skipped, counted) when its path leaves the top folder (`..`, an absolute path, another top
// folder), when it is a link or anything but a file, or when it is larger than a file may be; the whole read stops,
// unchecked, past the caps on the archive's bytes, the bytes it unpacks to, files, or text.
import { once } from 'node:events'
import { Parser, type ReadEntry } from 'tar'
import { errorMessage, forLog } from '../text/untrusted.ts'
import { type Caps, CAPS, CorpusBuilder, type CorpusRead, sizeWords } from './corpus.ts'

const MIB = 1024 * 1024
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile'])

export interface TarballCaps extends Caps {
  /** Bytes of the archive read (compressed), at most. */
  readonly archiveBytes: number
  /** Bytes its entries unpack to, refused ones included, at most. */
  readonly unpackedBytes: number
}

export const TARBALL_CAPS: TarballCaps = { ...CAPS, archiveBytes: 256 * MIB, unpackedBytes: 1024 * MIB }

export interface TarballOptions {
  readonly caps?: TarballCaps
  /** Files not to read, by their path under the top folder. */
  readonly skip?: (path: string) => boolean
  /** The code base's name in a reason, such as "the repository's tarball". */
  readonly what?: string
}

/** What a tarball held besides what was indexed. */
export interface Refusals {
  /** Entries whose path leaves the top folder. */
  outside: number
  /** Links, devices and anything else but files and folders. */
  links: number
  /** Files over the size cap. */
  huge: number
}

/** The tarball's text files, indexed; or why they could not be. */
export async function readTarball(
  archive: AsyncIterable<Uint8Array>,
  options: TarballOptions = {}
): Promise<CorpusRead & { readonly refused: Refusals }> {
  const caps = options.caps ?? TARBALL_CAPS
  const what = options.what ?? "the repository's tarball"
  const refused: Refusals = { outside: 0, links: 0, huge: 0 }
  const builder = new CorpusBuilder(caps, what)
  let stop: string | undefined
  let top: string | undefined
  let unpacked = 0
  const parser = new Parser({
    strict: false,
    // Decides on each entry from its header alone: an entry filtered out is skipped unread.
    filter: (_path, entry) => {
      const header = entry as ReadEntry
      unpacked += header.size
      if (stop === undefined && unpacked > caps.unpackedBytes)
        stop = `${what} unpacks to more than ${sizeWords(caps.unpackedBytes)}`
      if (stop !== undefined) return false
      const path = pathUnder(header.path, (top ??= topFolderOf(header.path)))
      if (header.type === 'Directory') return false
      if (path === undefined) refused.outside++
      else if (!FILE_TYPES.has(header.type)) refused.links++
      else if (header.size > caps.fileBytes) refused.huge++
      else return !(options.skip?.(path) ?? false)
      return false
    }
  })
  parser.on('entry', (entry: ReadEntry) => {
    const chunks: Buffer[] = []
    entry.on('data', (chunk: Buffer) => chunks.push(chunk))
    entry.on('end', () => {
      const path = pathUnder(entry.path, top ?? '')
      if (stop !== undefined || path === undefined) return
      stop = builder.add(path, Buffer.concat(chunks))
    })
  })
  const reason = await readInto(parser, archive, caps, what, () => stop)
  if (reason !== undefined) return { kind: 'unchecked', reason, refused }
  for (let count = refused.outside + refused.links + refused.huge; count > 0; count--) builder.skip()
  return { kind: 'read', corpus: builder.result(), refused }
}

/** Writes the archive into the parser, within the cap on its bytes; the reason the read stopped, if it did. */
async function readInto(
  parser: Parser,
  archive: AsyncIterable<Uint8Array>,
  caps: TarballCaps,
  what: string,
  stopped: () => string | undefined
): Promise<string | undefined> {
  let failed: string | undefined
  parser.on('warn', (code: string, message: unknown) => {
    if (code === 'TAR_ABORT' || code === 'TAR_BAD_ARCHIVE') failed ??= errorMessage(message)
  })
  // An aborted parser takes no more bytes and never ends: waiting stops with it.
  const aborted = once(parser, 'abort').then(() => undefined)
  const reason = (): string | undefined =>
    stopped() ?? (failed === undefined ? undefined : `${what} could not be read: ${forLog(failed, 200)}`)
  let read = 0
  try {
    for await (const chunk of archive) {
      read += chunk.length
      if (read > caps.archiveBytes) return `${what} is larger than ${sizeWords(caps.archiveBytes)}`
      const flowing = parser.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length))
      if (!flowing && reason() === undefined) await Promise.race([once(parser, 'drain'), aborted])
      if (reason() !== undefined) return reason()
    }
    const ended = once(parser, 'end')
    parser.end()
    await Promise.race([ended, aborted])
  } catch (error) {
    failed ??= errorMessage(error)
  }
  return reason()
}

/** The first segment of an entry's path: GitHub puts every file under `owner-repo-sha/`. */
function topFolderOf(path: string): string {
  return path.replace(/^\.\//, '').split('/')[0] ?? ''
}

/** The path under the top folder, or undefined when it leaves it: another top, `..`, an absolute or a drive path. */
export function pathUnder(path: string, top: string): string | undefined {
  const clean = path.replace(/^\.\//, '')
  if (clean.startsWith('/') || /^[A-Za-z]:/.test(clean) || clean.includes('\\')) return undefined
  const segments = clean.split('/')
  if (segments[0] !== top || segments.some((segment) => segment === '..')) return undefined
  const rest = segments.slice(1).filter((segment) => segment !== '' && segment !== '.')
  return rest.length === 0 ? undefined : rest.join('/')
}
