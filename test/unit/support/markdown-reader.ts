// How a Markdown reader splits the section: fenced code blocks and inline code spans, read as CommonMark reads
// them. Tests use it to check that quoted text stays inside the quote that holds it.

export interface FencedBlock {
  readonly info: string
  readonly content: string
}

export interface ReadSection {
  /** The lines outside every fenced block. */
  readonly outside: readonly string[]
  readonly blocks: readonly FencedBlock[]
  /** A block was still open at the end of the text. */
  readonly unclosed: boolean
}

const OPENING = /^ {0,3}(`{3,}|~{3,})(.*)$/

/** The text's fenced blocks, each closed by the first line that CommonMark reads as its closing fence. */
export function readFences(text: string): ReadSection {
  const outside: string[] = []
  const blocks: FencedBlock[] = []
  let open: { closing: RegExp; info: string; lines: string[] } | undefined
  for (const line of text.split('\n')) {
    if (open) {
      if (open.closing.test(line)) {
        blocks.push({ info: open.info, content: open.lines.join('\n') })
        open = undefined
      } else {
        open.lines.push(line)
      }
      continue
    }
    const match = OPENING.exec(line)
    if (match?.[1] !== undefined && !(match[1].startsWith('`') && match[2]?.includes('`'))) {
      const closing = new RegExp(`^ {0,3}\\${match[1].charAt(0)}{${match[1].length},}[ \\t]*$`)
      open = { closing, info: (match[2] ?? '').trim(), lines: [] }
    } else {
      outside.push(line)
    }
  }
  return { outside, blocks, unclosed: open !== undefined }
}

export interface ReadLine {
  /** The text of the line's code spans, as CommonMark reads them. */
  readonly spans: readonly string[]
  /** The line with its code spans taken out. */
  readonly plain: string
}

/** The line's code spans: a run of n backticks opens one that the next run of exactly n backticks closes. */
export function readCodeSpans(line: string): ReadLine {
  const spans: string[] = []
  let plain = ''
  let at = 0
  while (at < line.length) {
    const tick = line.indexOf('`', at)
    if (tick < 0) break
    plain += line.slice(at, tick)
    const run = /^`+/.exec(line.slice(tick))?.[0] ?? '`'
    const closer = new RegExp(`(?<!\`)${run}(?!\`)`, 'g')
    closer.lastIndex = tick + run.length
    const close = closer.exec(line)
    if (!close) {
      plain += run
      at = tick + run.length
      continue
    }
    const inner = line.slice(tick + run.length, close.index)
    const padded = inner.length >= 2 && inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== ''
    spans.push(padded ? inner.slice(1, -1) : inner)
    at = close.index + run.length
  }
  plain += line.slice(at)
  return { spans, plain }
}
