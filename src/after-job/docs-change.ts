// The code a docs change adds, read from its patches: in Markdown and MDX files, the inline code spans and the lines of
// fenced code blocks on added lines, each with its line in the new file. A patch shows only its hunks, so whether a
// line is inside a fence is tracked along the new file's lines the hunks show; after a gap between hunks, the next
// hunk's first fence tells whether it starts inside a block (see startsInside), and where it shows none the reading
// is carried over the gap.
import type { ChangedFile } from '../github/change.ts'

/** A piece of code on an added line: an inline code span, or one line of a fenced block. */
export interface CodePiece {
  readonly path: string
  /** Its line in the new file. */
  readonly line: number
  readonly text: string
  /** For a block's line, the block (its language and every line of it the patch shows); undefined for inline code. */
  readonly block: CodeBlock | undefined
}

export interface CodeBlock {
  /** The fence's info string's first word, lower-cased: `ts`, `bash`, `json`; empty when it names none. */
  readonly language: string
  /** The block's lines the patch shows (context and added), in order, with their lines in the new file. */
  readonly lines: { readonly line: number; readonly text: string; readonly added: boolean }[]
}

/** What a change adds and removes in its docs. */
export interface DocsChange {
  readonly pieces: readonly CodePiece[]
  /** Every line the change removed, in any file: a name it only moves is grounded by them. */
  readonly removed: readonly string[]
  /** Markdown files changed whose patch GitHub did not give (too large, or binary). */
  readonly withoutPatch: readonly string[]
}

const MARKDOWN = /\.(?:md|mdx|markdown|mdown|mkd)$/i

/** Whether the path is a Markdown or MDX file: the docs whose names are checked. */
export function isMarkdownPath(path: string): boolean {
  return MARKDOWN.test(path)
}

/** The code on the added lines of the change's Markdown and MDX files, and the lines it removed. */
export function readDocsChange(files: readonly ChangedFile[]): DocsChange {
  const pieces: CodePiece[] = []
  const removed: string[] = []
  const withoutPatch: string[] = []
  for (const file of files) {
    const markdown = isMarkdownPath(file.path)
    if (file.patch === undefined) {
      if (markdown && file.status !== 'removed' && (file.additions ?? 1) > 0) withoutPatch.push(file.path)
      continue
    }
    const hunks = hunksOf(file.patch)
    for (const hunk of hunks) removed.push(...hunk.removed)
    if (markdown && file.status !== 'removed') pieces.push(...codeOf(file.path, hunks))
  }
  return { pieces, removed, withoutPatch }
}

interface Hunk {
  /** The new file's line the hunk starts at. */
  readonly start: number
  /** The new file's lines the hunk shows, context and added. */
  readonly lines: { readonly line: number; readonly text: string; readonly added: boolean }[]
  readonly removed: string[]
}

const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/

/** The hunks of a unified diff, as GitHub gives a file's patch. */
export function hunksOf(patch: string): Hunk[] {
  const hunks: Hunk[] = []
  let hunk: Hunk | undefined
  let line = 0
  for (const text of patch.split(/\r?\n/)) {
    const header = HUNK_HEADER.exec(text)
    if (header) {
      line = Number(header[1])
      hunk = { start: line, lines: [], removed: [] }
      hunks.push(hunk)
      continue
    }
    if (!hunk || text.startsWith('\\')) continue
    const mark = text.charAt(0)
    if (mark === '-') hunk.removed.push(text.slice(1))
    else if (mark === '+' || mark === ' ' || text === '') {
      hunk.lines.push({ line, text: text.slice(1), added: mark === '+' })
      line += 1
    }
  }
  return hunks
}

/** A fence line: up to any indentation or `>` quoting, three or more backticks or tildes, and its info string. */
const FENCE = /^[\s>]*(`{3,}|~{3,})(.*)$/

interface Fence {
  readonly char: string
  readonly size: number
  /** Its info string, trimmed. */
  readonly info: string
}

function fenceOf(text: string): Fence | undefined {
  const match = FENCE.exec(text)
  const marks = match?.[1] ?? ''
  const info = (match?.[2] ?? '').trim()
  if (!match || (marks.startsWith('`') && info.includes('`'))) return undefined
  return { char: marks.charAt(0), size: marks.length, info }
}

interface Open extends Fence {
  readonly block: CodeBlock
}

const openOf = (fence: Fence): Open => ({
  ...fence,
  block: { language: (fence.info.split(/[\s{,]/, 1)[0] ?? '').toLowerCase(), lines: [] }
})

/** A line only prose has: a heading below the title, a link, or words before an inline code span. */
const PROSE = /^\s*#{2,6}\s+\S|\]\([^)\s]*\)|[A-Za-z]{2,},? `[^`]+`/

/**
 * Whether the hunk starts inside a block, judged by the lines up to its first fence: a line only prose has says
 * outside; a fence with an info string opens a block; a bare one closes a block when a blank line, a heading, prose
 * or nothing follows it (as prose follows a block), and opens one when a line of code does. Undefined when the hunk shows
 * neither: the reading carried over the gap stands.
 */
function startsInside(hunk: Hunk): boolean | undefined {
  const first = hunk.lines.findIndex((line) => fenceOf(line.text) !== undefined)
  const before = first < 0 ? hunk.lines : hunk.lines.slice(0, first)
  if (before.some((line) => PROSE.test(line.text))) return false
  if (first < 0) return undefined
  if (fenceOf(hunk.lines[first]?.text ?? '')?.info !== '') return false
  const next = hunk.lines[first + 1]?.text
  return next === undefined || next.trim() === '' || /^\s*#/.test(next) || PROSE.test(next)
}

/** The code pieces on the hunks' added lines, with fences tracked along the lines the hunks show. */
function codeOf(path: string, hunks: readonly Hunk[]): CodePiece[] {
  const pieces: CodePiece[] = []
  let open: Open | undefined
  for (const hunk of hunks) {
    // The file's first line is outside any block; after a gap, the hunk's first fence tells.
    const inside = hunk.start <= 1 ? false : startsInside(hunk)
    if (inside === false) open = undefined
    else if (inside === true) open ??= openOf({ char: '', size: 0, info: '' })
    for (const line of hunk.lines) {
      const fence = fenceOf(line.text)
      if (
        fence &&
        open &&
        (open.char === '' || fence.char === open.char) &&
        fence.size >= open.size &&
        fence.info === ''
      ) {
        open = undefined
        continue
      }
      if (fence && !open) {
        open = openOf(fence)
        continue
      }
      if (open) {
        open.block.lines.push(line)
        if (line.added) pieces.push({ path, line: line.line, text: line.text, block: open.block })
      } else if (line.added) {
        for (const span of codeSpans(line.text)) pieces.push({ path, line: line.line, text: span, block: undefined })
      }
    }
  }
  return pieces
}

/**
 * The inline code spans of one line: a run of backticks up to the next run of the same length; not a span that is the
 * whole text of a link to another site.
 */
export function codeSpans(text: string): string[] {
  const spans: string[] = []
  const runs = [...text.matchAll(/`+/g)]
  for (let at = 0; at < runs.length; at++) {
    const opening = runs[at]
    if (!opening || (opening.index > 0 && text[opening.index - 1] === '\\')) continue
    const close = runs.findIndex((run, index) => index > at && run[0].length === opening[0].length)
    const closing = runs[close]
    if (!closing) continue
    const inner = text.slice(opening.index + opening[0].length, closing.index)
    const content = /^ .*[^ ].* $/.test(inner) ? inner.slice(1, -1) : inner
    // A span that is the whole text of a link away (`[`react-scripts`](https://...)`) names where the link leads.
    const after = text.slice(closing.index + closing[0].length)
    const linked = text.charAt(opening.index - 1) === '[' && /^\]\(\s*<?https?:/i.test(after)
    if (content.trim() !== '' && !linked) spans.push(content)
    at = close
  }
  return spans
}
