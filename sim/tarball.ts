// A gzipped tarball as GitHub serves a repository's (every file under one top folder), written by hand so that a test
// can also say what no well-behaved tool would write: paths out of the root, links, sizes that lie.
import { gzipSync } from 'node:zlib'

export interface TarEntry {
  readonly path: string
  readonly content?: string | Buffer
  /** ustar type flag: 0 a file, 1 a hard link, 2 a symbolic link, 5 a folder. */
  readonly type?: '0' | '1' | '2' | '5'
  readonly link?: string
  /** The size the header states, when not the content's. */
  readonly size?: number
}

/** A ustar header block. */
function header(entry: TarEntry, size: number): Buffer {
  const block = Buffer.alloc(512)
  const put = (text: string, at: number, length: number): void => {
    block.write(text.slice(0, length), at, 'utf8')
  }
  const octal = (value: number, length: number): string => `${value.toString(8).padStart(length - 1, '0')}\0`
  put(entry.path, 0, 100)
  put(octal(0o644, 8), 100, 8)
  put(octal(0, 8), 108, 8)
  put(octal(0, 8), 116, 8)
  put(octal(size, 12), 124, 12)
  put(octal(0, 12), 136, 12)
  put(entry.type ?? '0', 156, 1)
  put(entry.link ?? '', 157, 100)
  put('ustar\0', 257, 6)
  put('00', 263, 2)
  block.fill(' ', 148, 156)
  const sum = block.reduce((total, byte) => total + byte, 0)
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8)
  return block
}

export function tarball(entries: readonly TarEntry[]): Buffer {
  const blocks = entries.flatMap((entry) => {
    const content = Buffer.from(entry.content ?? '')
    const padding = Buffer.alloc((512 - (content.length % 512)) % 512)
    return [header(entry, entry.size ?? content.length), content, padding]
  })
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]))
}

/** A repository's files as GitHub's tarball holds them: under `owner-repo-sha/`. */
export function repositoryTarball(top: string, files: Readonly<Record<string, string>>): Buffer {
  return tarball(Object.entries(files).map(([path, content]) => ({ path: `${top}/${path}`, content })))
}
