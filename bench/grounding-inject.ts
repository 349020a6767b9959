// Names that exist nowhere, put into a change: a real name of the code, where the docs use it as code (called, a
// member, a flag, an environment variable, a key), changed by a letter or a word, so that neither the code nor the
// docs hold it anywhere.
import type { WordIndex } from '../src/after-job/corpus.ts'
import { codeSpans } from '../src/after-job/docs-change.ts'
import { OUTSIDE_TOOLS, vocabularyOf } from '../src/after-job/vocabulary.ts'

// Where code uses a name: a member (`a.name`), a call (`name(`), a long flag, an environment variable, a key of an
// object or of configuration (`{ name: ...`, `name: ...` at a line's start). Not where an example names its own
// function or variable (`function name(`, `const name =`).
const CODE_POSITIONS = [
  /(?<=[A-Za-z0-9_)\]]\.)([A-Za-z_][A-Za-z0-9_]{3,})\b/g,
  /(?<!\b(?:function|def|class|const|let|var|new|fn|func)\s+)\b([A-Za-z_][A-Za-z0-9_]{3,})(?=\()/g,
  /(?<=(?:^\s*|[{,]\s*))([A-Za-z_][A-Za-z0-9_]{3,})(?=\s*:\s)/g
]
const COMMAND_POSITIONS = [/(?<=\s--)([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\b/g, /\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/g]
const TEXT_BLOCKS = /^(?:text|txt|plaintext|output|)$/

/** The code of a piece with its strings and comments blanked out, keeping every other character where it was. */
function withoutStringsAndComments(text: string): string {
  const blank = (match: string): string => ' '.repeat(match.length)
  return text.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, blank).replace(/(^|\s)(?:\/\/|#).*$/, blank)
}

const OTHER_WORDS = [
  'many',
  'all',
  'async',
  'sync',
  'item',
  'list',
  'user',
  'config',
  'options',
  'data',
  'value',
  'batch',
  'remote',
  'local',
  'safe',
  'raw',
  'next',
  'last'
]

interface Candidate {
  readonly line: number
  /** Where the name starts in the line. */
  readonly at: number
  readonly word: string
}

/** The code on each added line: the line itself inside a fence, its inline code spans outside one. */
function candidatesOf(
  lines: readonly string[],
  added: ReadonlySet<number>,
  isReal: (word: string) => boolean
): Candidate[] {
  const candidates: Candidate[] = []
  let fence: string | undefined
  let language: string | undefined
  for (const [index, line] of lines.entries()) {
    const opening = /^\s*(`{3,}|~{3,})\s*(\S*)/.exec(line)
    const marks = opening?.[1]
    if (marks) {
      fence = fence === undefined ? marks : marks.startsWith(fence) ? undefined : fence
      language = fence === undefined ? undefined : (opening[2] ?? '').toLowerCase()
      continue
    }
    if (!added.has(index)) continue
    const pieces = fence !== undefined ? [{ text: line, offset: 0 }] : spansWithOffsets(line)
    // A file's name (`.env.vault`) is no code name.
    for (const piece of pieces.filter((candidate) => !/^\.\w/.test(candidate.text))) {
      const text = withoutStringsAndComments(piece.text)
      const command = /^\s*(?:\$\s+)?([\w.-]+)/.exec(text)?.[1] ?? ''
      if (OUTSIDE_TOOLS.has(command) && !/^\s*npx\s/.test(text)) continue
      const shell = language === 'sh' || language === 'bash' || language === 'console' || /^\s*\$\s/.test(text)
      const patterns =
        shell || TEXT_BLOCKS.test(language ?? '-') ? COMMAND_POSITIONS : [...CODE_POSITIONS, ...COMMAND_POSITIONS]
      for (const pattern of patterns) {
        for (const match of text.matchAll(pattern)) {
          const word = match[1] ?? ''
          if (isReal(word)) candidates.push({ line: index, at: piece.offset + match.index, word })
        }
      }
    }
  }
  return candidates
}

function spansWithOffsets(line: string): { text: string; offset: number }[] {
  let from = 0
  return codeSpans(line).map((text) => {
    const offset = line.indexOf(text, from)
    from = offset + text.length
    return { text, offset }
  })
}

/** The word changed by a letter (replaced or dropped) or by a word (replaced or added), keeping its case style. */
function mutate(word: string, random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const kind = pick(['letter', 'drop', 'word', 'add'] as const)
  if (kind === 'letter' || (kind === 'drop' && word.length < 6)) {
    const at = 1 + Math.floor(random() * (word.length - 1))
    const letter = pick('aeioulnrst'.split(''))
    const char = word.charAt(at)
    const replaced = char === char.toUpperCase() && /[A-Z]/.test(char) ? letter.toUpperCase() : letter
    return `${word.slice(0, at)}${replaced}${word.slice(at + 1)}`
  }
  if (kind === 'drop') {
    const at = 1 + Math.floor(random() * (word.length - 2))
    return `${word.slice(0, at)}${word.slice(at + 1)}`
  }
  const other = pick(OTHER_WORDS)
  const style = word.includes('_') ? '_' : word.includes('-') ? '-' : ''
  const shaped =
    word === word.toUpperCase()
      ? other.toUpperCase()
      : style === ''
        ? other.charAt(0).toUpperCase() + other.slice(1)
        : other
  if (kind === 'add') return `${word}${style}${shaped}`
  const parts = word.split(style === '' ? /(?=[A-Z])/ : style)
  const at = Math.floor(random() * parts.length)
  const fitted = at === 0 && style === '' ? shaped.charAt(0).toLowerCase() + shaped.slice(1) : shaped
  return parts
    .map((piece, index) => (index === at ? (at === 0 && /^[A-Z]/.test(piece) ? shaped : fitted) : piece))
    .join(style)
}

/** The lines with `count` names that exist nowhere put in, on different lines; and those names. */
export function inject(
  lines: readonly string[],
  added: ReadonlySet<number>,
  indexes: readonly WordIndex[],
  random: () => number,
  count: number
): { lines: string[]; names: string[] } {
  const javascript = vocabularyOf(['javascript'])
  const code = indexes[0]
  const isReal = (word: string): boolean =>
    code !== undefined && code.has(word) && !javascript.isBuiltin(word) && !javascript.isMember(word)
  const candidates = candidatesOf(lines, added, isReal)
  const result = [...lines]
  const names: string[] = []
  const used = new Set<number>()
  const exists = (word: string): boolean => indexes.some((index) => index.has(word))
  while (names.length < count && candidates.length > 0) {
    const [candidate] = candidates.splice(Math.floor(random() * candidates.length), 1)
    if (!candidate || used.has(candidate.line) || names.includes(candidate.word)) continue
    let mutated = mutate(candidate.word, random)
    for (let tries = 0; tries < 10 && (exists(mutated) || mutated.length < 4); tries++)
      mutated = mutate(candidate.word, random)
    if (exists(mutated) || mutated.length < 4) continue
    const line = result[candidate.line] ?? ''
    result[candidate.line] =
      `${line.slice(0, candidate.at)}${mutated}${line.slice(candidate.at + candidate.word.length)}`
    used.add(candidate.line)
    names.push(mutated)
  }
  return { lines: result, names }
}
