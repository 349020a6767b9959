// The code names a docs change adds: each piece of code on its added lines read by what it is (a code block by its
// language, inline code by its shape), then the built-ins, placeholders, ignored names and words too short to tell
// anything set aside. What is left is what the check looks up.
import { codeNames, type Found, type Part, variablesReadIn } from './code-names.ts'
import { commandNames, configNames, flagsIn, requestNames, routeOf, spellingsOf } from './command-names.ts'
import { localsOf } from './example-locals.ts'
import type { CodeBlock, CodePiece } from './docs-change.ts'
import { type Token, tokenize, type TokenStyle } from './code-tokens.ts'
import { isPlaceholder, languageOfFence, OUTSIDE_TOOLS, type Vocabulary } from './vocabulary.ts'

/** A name the change adds: what it looks up, and where the change adds it. */
export interface Name {
  /** As the check shows it: `client.users.list()`, `--dry-run`, `API_TIMEOUT_MS`, `GET /users/{id}`. */
  readonly shown: string
  readonly kind: Found['kind']
  /** Each part must be found, in one of its spellings. */
  readonly parts: readonly Part[]
  readonly path: string
  /** Its line in the new file. */
  readonly line: number
  /** The language of the block it is in (`javascript`, `python`...), whose built-ins it may use; empty for others. */
  readonly language: string
  /** For a name imported by its own name, the module it is imported from. */
  readonly module?: string
}

type Family = 'code' | 'shell' | 'console' | 'json' | 'yaml' | 'toml' | 'env' | 'http' | 'text' | 'none'

const FAMILIES: Readonly<Record<string, Family>> = {
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
  zsh: 'shell',
  fish: 'shell',
  powershell: 'shell',
  ps1: 'shell',
  pwsh: 'shell',
  cmd: 'shell',
  bat: 'shell',
  console: 'console',
  terminal: 'console',
  'shell-session': 'console',
  'sh-session': 'console',
  shellsession: 'console',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  ini: 'toml',
  dosini: 'toml',
  cfg: 'toml',
  conf: 'toml',
  properties: 'toml',
  env: 'env',
  dotenv: 'env',
  http: 'http',
  rest: 'http',
  text: 'text',
  txt: 'text',
  plaintext: 'text',
  plain: 'text',
  output: 'text',
  log: 'text'
}

const NO_NAMES = new Set(
  `docker diff patch csv tsv mermaid math latex tex md markdown mdx html xml svg css
  scss sass less sql graphql gql dockerfile makefile nginx apache ascii none regex`.split(/\s+/)
)

/** What a block is, by its fence's language, or by its first line when it names none. */
function familyOf(block: CodeBlock): Family {
  const named = FAMILIES[block.language]
  if (named) return named
  if (NO_NAMES.has(block.language)) return 'none'
  if (block.language !== '') return 'code'
  const first = block.lines.find((line) => line.text.trim() !== '')?.text.trim() ?? ''
  if (/^[$%] /.test(first)) return 'console'
  if (OUTSIDE_TOOLS.has(first.split(/\s+/)[0] ?? '') || /^npx /.test(first)) return 'shell'
  if (/^[{[]/.test(first) && block.lines.some((line) => /"\s*:/.test(line.text))) return 'json'
  if (/^(?:GET|POST|PUT|PATCH|DELETE) \//.test(first)) return 'http'
  // Code has brackets or semicolons on most lines; a program's help or output has them on few.
  const shown = block.lines.filter((line) => line.text.trim() !== '')
  const coded = shown.filter((line) => /\w\(|[{};]\s*$|=>|^\s*(?:import|from|const|let|var|def|func)\b/.test(line.text))
  return coded.length * 3 >= shown.length ? 'code' : 'text'
}

const HASH_COMMENTS = new Set(['python', 'ruby', 'shell'])

function styleOf(language: string): TokenStyle {
  const hash = HASH_COMMENTS.has(language)
  return { slashComments: !hash, hashComments: hash, dashed: false }
}

/** The names a block adds: from its added lines, with the example's own names read from all of its lines shown. */
function blockNames(block: CodeBlock): Found[] {
  const lines = block.lines.map((line) => line.text)
  const added = (row: number): boolean => block.lines[row]?.added ?? false
  const family = familyOf(block)
  switch (family) {
    case 'none':
      return []
    case 'text':
      return lines.flatMap((line, row) => (added(row) ? flagsIn(line.trim().split(/[\s|,[\]]+/), row) : []))
    case 'shell':
    case 'console':
      return commandNames(lines, added, family === 'console')
    case 'json':
    case 'yaml':
    case 'toml':
    case 'env':
      return configNames(lines, added, family)
    case 'http':
      return requestNames(lines, added)
    case 'code': {
      const language = languageOfFence(block.language) ?? block.language
      return codeNames(lines, added, language, styleOf(language))
    }
  }
}

const FILE_EXTENSION =
  /\.(?:[cm]?[jt]sx?|d\.ts|json5?|mdx?|ya?ml|toml|txt|html?|css|scss|py|go|rb|rs|sh|lock|env|png|jpe?g|svg|gif|ico|pdf|zip|t?gz|xml|csv|log|ini|cfg|conf|map|wasm|exe|dll)$/i

/**
 * The longest inline code span read for names. A longer one is a blob or a whole line of code, not a name a reader
 * types; and some scans below take time that grows with the square of a span's length.
 */
const MAX_INLINE_SPAN = 200

/** The names an inline code span holds, read by its shape. */
export function inlineNames(span: string): Found[] {
  const text = span.trim()
  if (text.length > MAX_INLINE_SPAN) return []
  const request = /^([A-Z]+)\s+(\S+)$/.exec(text)
  if (request && /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/.test(request[1] ?? '')) {
    return [routeOf(request[1] ?? '', request[2] ?? '', 0) ?? []].flat()
  }
  if (/^\/\S*(?:\{[^}]+\}|\/:\w)/.test(text)) return [routeOf('', text, 0) ?? []].flat()
  if (/:\/\//.test(text) || /^[v^~>=<]*\d/.test(text)) return []
  if (/^-/.test(text)) return flagsIn(text.split(/[\s|]+/), 0)
  const first = text.split(/\s+/)[0] ?? ''
  if (/^[$%] /.test(text) || (/\s/.test(text) && (OUTSIDE_TOOLS.has(first) || first === 'npx'))) {
    return commandNames([text], () => true, false)
  }
  if (/^[A-Za-z_][A-Za-z0-9_]*=\S*$/.test(text)) return configNames([text], () => true, 'env')
  if ((FILE_EXTENSION.test(text) || /^\.[\w.-]+$/.test(text)) && !/[\s(]/.test(text)) return []
  // A plain word (`line`, `operators`, `localhost`, `ALLOW-FROM`) reads as a term or a value as much as a name, and
  // nearly any code has it: only a name with the shape of one (`deleteMany`, `max_age`, `API_KEY`, `dry-run`, a call,
  // a path) is one.
  if (/^[A-Za-z][a-z0-9]*$|^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*$/.test(text)) return []
  // Words in a code font (`on the command line`) are prose, not code.
  if (/^[a-z]+(?:,? [a-z]+){2,}$/.test(text)) return []
  // A glob pattern (`a{/b/c,bcd}`, `**/*.js`) or a value with numbers in it (a date, a size) names nothing.
  if ((/[*?]|\{[^}]*,/.test(text) && !/\s/.test(text)) || (text.match(/\b\d+\b/g) ?? []).length >= 3) return []
  // Paths, media types and package names (`src/index.ts`, `application/json`, `@scope/pkg`) name no code, and nor do
  // the slots of a syntax (`:token-name[format]`, `allow [bool]`, `<token>`).
  const code = text.replace(/[\w@.~-]*\/[\w@.~/-]*|(?<=^|\s):[\w-]+|\[[\w-]+\]|<[\w\s-]+>/g, ' ')
  return codeNames([code], () => true, '', { slashComments: false, hashComments: false, dashed: true })
}

/** The names of the pieces, each with its file and line, without the names the file's examples make up. */
export function namesOf(pieces: readonly CodePiece[]): Name[] {
  const files = Map.groupBy(pieces, (piece) => piece.path)
  return [...files].flatMap(([path, filePieces]) => {
    const blocks = [...new Set(filePieces.flatMap((piece) => piece.block ?? []))]
    const own = ownWords(blocks)
    for (const piece of filePieces)
      if (piece.block === undefined) for (const word of inlineOwnWords(piece.text)) own.add(word)
    const names: Name[] = []
    for (const piece of filePieces.filter((candidate) => candidate.block === undefined)) {
      for (const found of inlineNames(piece.text)) names.push({ ...found, path, line: piece.line, language: '' })
    }
    for (const block of blocks) {
      const language = languageOfFence(block.language) ?? ''
      for (const found of blockNames(block)) {
        names.push({ ...found, path, line: block.lines[found.row]?.line ?? 0, language })
      }
    }
    return names
      .sort((first, second) => first.line - second.line)
      .map((name) => ({
        ...name,
        parts: name.parts.map((piece) => (own.has(piece.word) ? { ...piece, own: true } : piece))
      }))
  })
}

/**
 * The names a file's code examples make up: what they declare (not what they import or take by its own name), and
 * the words of their strings (`.option('--pizza-type')` makes up `pizza-type`, and so `pizzaType`).
 */
function ownWords(blocks: readonly CodeBlock[]): Set<string> {
  const own = new Set<string>()
  const addWords = (text: string): void => {
    for (const word of text.match(/[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*/g) ?? []) {
      for (const spelling of [word, ...spellingsOf(word)]) own.add(spelling)
    }
  }
  // A configuration's values are the example's own data: `"scripts": { "a": "cross-env GREET=hi npm run b" }`.
  for (const block of blocks.filter((candidate) => /^(?:json|yaml)$/.test(familyOf(candidate)))) {
    for (const line of block.lines)
      for (const value of line.text.match(/:\s*("(?:[^"\\]|\\.)*")/g) ?? []) addWords(value)
  }
  for (const block of blocks.filter((candidate) => familyOf(candidate) === 'code')) {
    // A variable the example reads itself (`new Client(process.env.API_KEY)`) is the example's, wherever it is set.
    for (const name of variablesReadIn(block.lines.map((line) => line.text))) own.add(name)
    const language = languageOfFence(block.language) ?? block.language
    const tokens = tokenize(
      block.lines.map((line) => line.text),
      styleOf(language)
    )
    const locals = localsOf(tokens, language)
    for (const at of locals.declaring) if (!locals.taken.has(at)) own.add(tokens[at]?.text ?? '')
    for (const at of assignedMembers(tokens, locals.names)) own.add(tokens[at]?.text ?? '')
    for (const token of tokens.filter((candidate) => candidate.kind === 'string')) addWords(token.text)
  }
  return own
}

/**
 * The names an inline span makes up: a signature's parameters (`subset(subRange, superRange)`) and the slots of a
 * syntax (`:token-name`, `[format]`).
 */
function inlineOwnWords(span: string): string[] {
  const parameters = /^[\w.]+\(([\w\s,]+)\)$/.exec(span.trim())?.[1]?.split(/\s*,\s*/) ?? []
  const slots = [...span.matchAll(/(?<=^|\s):([\w-]+)|\[([\w-]+)\]|<([\w-]+)>/g)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? ''
  )
  return [...parameters, ...slots].filter((word) => word !== '')
}

/** Members the example sets on its own objects (`ws.isAlive = true`, `this.timer = ...`): made up by it. */
function assignedMembers(tokens: readonly Token[], locals: ReadonlySet<string>): number[] {
  return tokens.flatMap((token, at) => {
    if (token.kind !== 'word' || tokens[at - 1]?.text !== '.' || tokens[at + 1]?.text !== '=') return []
    let root = at
    while (tokens[root - 1]?.text === '.' && tokens[root - 2]?.kind === 'word') root -= 2
    const word = tokens[root]?.text ?? ''
    return locals.has(word) || /^(?:this|self)$/.test(word) ? [at] : []
  })
}

/**
 * Whether a module is this code's: a package is when the code mentions it (its manifest names it, or its code imports
 * it), and is another's (`import { Client } from 'other-sdk'`) when it does not; a platform's module (`node:fs`, `os`)
 * is not, and nor is a relative path, which in an example is the reader's own file.
 */
function isThisCode(module: string, vocabulary: Vocabulary, mentioned: (word: string) => boolean): boolean {
  if (/^[./]/.test(module)) return false
  if (module.startsWith('node:')) return false
  const name = /^(?:@[^/]+\/)?([^/.]+)/.exec(module)?.[1] ?? ''
  return name !== '' && !vocabulary.isBuiltin(name) && mentioned(name)
}

/** Words of fewer letters than this tell nothing: nearly any code has them. */
const SHORTEST = 3

/**
 * The name as a claim: without the parts the vocabulary sets aside (built-in words, a standard type's members, words
 * too short to tell); undefined when it claims nothing (it holds a placeholder, it is ignored, it is imported from a
 * module that is not this code's, or no part is left).
 */
export function claimOf(
  name: Name,
  vocabulary: Vocabulary,
  ignored: (candidates: readonly string[]) => boolean,
  mentioned: (word: string) => boolean
): Name | undefined {
  const words = name.parts.map((piece) => piece.word)
  if (ignored([name.shown, ...words]) || words.some(isPlaceholder) || isPlaceholder(name.shown)) return undefined
  if (name.module !== undefined && !isThisCode(name.module, vocabulary, mentioned)) return undefined
  // The members of a platform's object (`console.log`, `fs.readFileSync`, `cluster.isMaster`) are the platform's.
  const root = name.parts[0]
  if (root?.role === 'root' && name.parts.length > 1 && vocabulary.isBuiltin(root.word)) return undefined
  // A path's root is the reader's object (`client` in `client.users.list`): its members are what is looked up.
  const members = name.parts.some((piece) => piece.role === 'member')
  const parts = name.parts.filter(
    (piece) =>
      piece.own !== true &&
      !(piece.role === 'root' && members) &&
      piece.word.length >= SHORTEST &&
      !/^\d/.test(piece.word) &&
      !(piece.role === 'member' ? vocabulary.isMember(piece.word) : vocabulary.isBuiltin(piece.word))
  )
  return parts.length === 0 ? undefined : { ...name, parts }
}
