// Code read as tokens, just enough to tell a name from a string, a comment or punctuation, in any of the languages
// docs show: words, strings (whose content is kept), numbers and punctuation, with the row each came from. Comments
// are dropped; a string or block comment may run over rows.

export interface Token {
  readonly kind: 'word' | 'string' | 'number' | 'punct'
  readonly text: string
  /** The row (an index into the lines read) the token starts on. */
  readonly row: number
}

export interface TokenStyle {
  /** `//` starts a comment. */
  readonly slashComments: boolean
  /** `#` starts a comment. */
  readonly hashComments: boolean
  /** Words may hold inner dashes (`dry-run`): in inline code, shell and configuration, not in code where `-` subtracts. */
  readonly dashed: boolean
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*/y
const DASHED_WORD = /[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*/y
const NUMBER = /\d[\w.]*/y
const PUNCT = /=>|\?\.|::|->|\.\.\.|===?|!==?|:=|\+=|-=|\*\*|[^\sA-Za-z0-9_]/y

interface Open {
  /** What ends it: `*\/` for a block comment, or a string's closing quote. */
  readonly end: string
  readonly row: number
  text: string
  readonly comment: boolean
}

/** The tokens of the lines, in order. */
export function tokenize(lines: readonly string[], style: TokenStyle): Token[] {
  const tokens: Token[] = []
  let open: Open | undefined
  for (const [row, line] of lines.entries()) {
    let at = 0
    if (open) {
      const closed = closeOpen(open, line, 0)
      if (closed < 0) {
        if (!open.comment) open.text += `${line}\n`
        continue
      }
      if (!open.comment) tokens.push({ kind: 'string', text: open.text + line.slice(0, closed), row: open.row })
      at = closed + open.end.length
      open = undefined
    }
    while (at < line.length) {
      const next = tokenAt(line, at, row, style)
      if (next.kind === 'rest') break
      if (next.kind === 'open') {
        open = next.open
        break
      }
      if (next.token) tokens.push(next.token)
      at = next.end
    }
  }
  return tokens
}

type Step =
  | { readonly kind: 'token'; readonly token: Token | undefined; readonly end: number }
  | { readonly kind: 'open'; readonly open: Open }
  | { readonly kind: 'rest' }

function tokenAt(line: string, at: number, row: number, style: TokenStyle): Step {
  const char = line.charAt(at)
  if (/\s/.test(char)) return { kind: 'token', token: undefined, end: at + 1 }
  const two = line.slice(at, at + 2)
  if (two === '/*' && style.slashComments) {
    const end = line.indexOf('*/', at + 2)
    if (end < 0) return { kind: 'open', open: { end: '*/', row, text: '', comment: true } }
    return { kind: 'token', token: undefined, end: end + 2 }
  }
  if ((two === '//' && style.slashComments) || (char === '#' && style.hashComments)) return { kind: 'rest' }
  if (char === '"' || char === "'" || char === '`') return stringAt(line, at, row)
  for (const [pattern, kind] of [
    [style.dashed ? DASHED_WORD : WORD, 'word'],
    [NUMBER, 'number'],
    [PUNCT, 'punct']
  ] as const) {
    pattern.lastIndex = at
    const match = pattern.exec(line)
    if (match) return { kind: 'token', token: { kind, text: match[0], row }, end: at + match[0].length }
  }
  return { kind: 'token', token: undefined, end: at + 1 }
}

/** A string from its opening quote: closed on its row, or (a template or triple quote) left open for the next. */
function stringAt(line: string, at: number, row: number): Step {
  const triple = line.slice(at, at + 3)
  const quote = triple === '"""' || triple === "'''" ? triple : line.charAt(at)
  const open: Open = { end: quote, row, text: '', comment: false }
  const start = at + quote.length
  const closed = closeOpen(open, line, start)
  if (closed >= 0) {
    return {
      kind: 'token',
      token: { kind: 'string', text: line.slice(start, closed), row },
      end: closed + quote.length
    }
  }
  // Only a template or a triple-quoted string runs over rows; an unclosed quote is an apostrophe, not a string.
  if (quote === '`' || quote.length === 3) return { kind: 'open', open: { ...open, text: `${line.slice(start)}\n` } }
  return { kind: 'token', token: { kind: 'punct', text: quote, row }, end: at + 1 }
}

/** Where `open` ends on the line from `from` (a backslash escapes in strings), or -1. */
function closeOpen(open: Open, line: string, from: number): number {
  for (let at = from; at < line.length; at++) {
    if (!open.comment && line.charAt(at) === '\\') {
      at++
      continue
    }
    if (line.startsWith(open.end, at)) return at
  }
  return -1
}

/** The index of the token that closes the bracket at `open` (`(`, `[`, `{` or `<`), or -1. */
export function closingOf(tokens: readonly Token[], open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' }
  const first = tokens[open]?.text ?? ''
  const close = pairs[first]
  if (close === undefined) return -1
  let depth = 0
  for (let at = open; at < tokens.length; at++) {
    const token = tokens[at]
    if (token?.kind !== 'punct') continue
    if (token.text === first) depth++
    else if (token.text === close && --depth === 0) return at
    // An angle bracket that does not close before a statement ends was a comparison, not a type's brackets.
    else if (first === '<' && /^[;{}()=]$/.test(token.text)) return -1
  }
  return -1
}
