// The names a code example uses: functions called, member paths, keys, types and names imported by their own name,
// each a name a reader would look for in the code, and the environment variables it reads. A member path whose root
// is the example's own (`client.users.list()` after `const client = ...`) claims its members only.
import { localsOf } from './example-locals.ts'
import { closingOf, type Token, tokenize, type TokenStyle } from './code-tokens.ts'

/** A name as found, before the vocabulary sets aside built-ins and placeholders. */
export interface Found {
  /** As the check shows it: `client.users.list()`, `--dry-run`, `API_TIMEOUT_MS`, `GET /users/{id}`. */
  readonly shown: string
  readonly kind: 'code' | 'flag' | 'variable' | 'key' | 'route' | 'command'
  /** What is looked up: each part must be found, in one of its spellings. */
  readonly parts: readonly Part[]
  /** The row (of the lines read) it is on. */
  readonly row: number
  /** For a name imported by its own name, the module it is imported from. */
  readonly module?: string
}

export interface Part {
  readonly word: string
  /** Other spellings that count as finding it (`dryRun` for `dry-run`). */
  readonly spellings: readonly string[]
  /** A path's root (set aside when built in), one of its members (set aside when a standard type's), or a word. */
  readonly role: 'root' | 'member' | 'word'
  /** A name the file's examples make up: set aside. */
  readonly own?: boolean
}

const ACCESS = new Set(['.', '?.', '::', '->'])
/** Roots that stand for the example's own object, as its variables do. */
const SELF = new Set(['this', 'self', 'super', 'cls'])

export const part = (word: string, role: Part['role'], spellings: readonly string[] = []): Part => ({
  word,
  spellings,
  role
})

/** The names used on the added rows of an example, its own names set aside wherever it declares them. */
export function codeNames(
  lines: readonly string[],
  added: (row: number) => boolean,
  language: string,
  style: TokenStyle
): Found[] {
  const tokens = tokenize(lines, style)
  const locals = localsOf(tokens, language)
  const found: Found[] = []
  for (let at = 0; at < tokens.length; at++) {
    const token = tokens[at]
    // In inline code, `.opts()` names a method without its object: a path of members only.
    const memberOnly = style.dashed && at === 1 && tokens[0]?.text === '.'
    if (token?.kind !== 'word' || (ACCESS.has(tokens[at - 1]?.text ?? '') && !memberOnly)) continue
    if (locals.declaring.has(at)) {
      const module = locals.taken.get(at)
      if (module !== undefined && added(token.row)) {
        const parts = [part(token.text, 'member')]
        found.push({ shown: token.text, kind: 'code', parts, row: token.row, ...(module === '' ? {} : { module }) })
      }
      continue
    }
    const chain = chainAt(tokens, at)
    if (isPassedValue(tokens, at, chain)) continue
    const rows = chain.segments.map((segment) => tokens[segment]?.row ?? -1)
    const row = rows.find(added)
    if (row === undefined) continue
    const words = chain.segments.map((segment) => tokens[segment]?.text ?? '')
    // A root called (`require('pkg').config()`) hands back a value: what follows is that value's, not the root's.
    const rootRole = tokens[at + 1]?.text === '(' ? 'word' : 'root'
    const parts = words.flatMap((word, index) =>
      index > 0 || memberOnly
        ? [part(word, 'member')]
        : locals.names.has(word) || SELF.has(word)
          ? []
          : [part(word, rootRole)]
    )
    if (parts.length === 0) continue
    const module = locals.modules.get(words[0] ?? '')
    const shown = `${memberOnly ? '.' : ''}${chain.shown}`
    found.push({ shown, kind: 'code', parts, row, ...(module === undefined ? {} : { module }) })
  }
  return [...found, ...variablesRead(lines, added)]
}

/**
 * A lone name handed to a call (`subset(subRange, superRange)`, `app.use(helmet)`, `post(SERVER_URL)`): a value the
 * reader has, or a parameter a signature names, not a name looked for in the code.
 */
function isPassedValue(tokens: readonly Token[], at: number, chain: { segments: number[] }): boolean {
  if (chain.segments.length > 1 || tokens[at + 1]?.text === '(') return false
  const before = tokens[at - 1]?.text ?? ''
  const after = tokens[at + 1]?.text ?? ''
  return /^[(,]$/.test(before) && /^[,)]$/.test(after)
}

/** The words of a member path from its root at `at`, through calls and indexes: `a.b(x).c[0].d`. */
function chainAt(tokens: readonly Token[], at: number): { segments: number[]; shown: string } {
  const segments = [at]
  let shown = tokens[at]?.text ?? ''
  let next = at + 1
  for (;;) {
    const text = tokens[next]?.text ?? ''
    if (text === '!') next++
    else if (text === '(' || text === '[') {
      const close = closingOf(tokens, next)
      if (close < 0) break
      if (text === '(' && next === (segments.at(-1) ?? at) + 1) shown += '()'
      next = close + 1
    } else if (ACCESS.has(text) && tokens[next + 1]?.kind === 'word') {
      segments.push(next + 1)
      shown += `.${tokens[next + 1]?.text ?? ''}`
      next += 2
    } else break
  }
  return { segments, shown }
}

// How code reads an environment variable: `process.env.NAME`, `process.env['NAME']`, `os.environ["NAME"]`,
// `os.getenv("NAME")`, `os.Getenv("NAME")`, `ENV['NAME']`, `env::var("NAME")`, `Deno.env.get("NAME")`.
const ENV_READS = [
  /\b(?:process\.env|import\.meta\.env)\.([A-Za-z_][A-Za-z0-9_]*)/g,
  /\b(?:process\.env|environ|ENV)\[\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]\s*\]/g,
  /\b(?:getenv|Getenv|LookupEnv|environ\.get|env::var|env\.get|getEnv|GetEnvironmentVariable)\(\s*['"]([A-Za-z_][A-Za-z0-9_]*)['"]/g
]

/** The environment variables the lines read. */
export function variablesReadIn(lines: readonly string[]): string[] {
  return lines.flatMap((line) =>
    ENV_READS.flatMap((pattern) => [...line.matchAll(pattern)].map((match) => match[1] ?? ''))
  )
}

function variablesRead(lines: readonly string[], added: (row: number) => boolean): Found[] {
  return lines.flatMap((line, row) =>
    added(row)
      ? ENV_READS.flatMap((pattern) =>
          [...line.matchAll(pattern)].map((match) => {
            const name = match[1] ?? ''
            return { shown: name, kind: 'variable' as const, parts: [part(name, 'word')], row }
          })
        )
      : []
  )
}
