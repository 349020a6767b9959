// The names in what is not code proper: command lines (the project's programs, their subcommands and long flags, and
// the environment variables they are given), configuration (its keys), and HTTP routes (their fixed segments). A
// program that is not the project's (npm, git, curl...) claims nothing with its arguments, but an HTTP call made with
// one claims its route.
import { type Found, part, type Part } from './code-names.ts'
import { OUTSIDE_TOOLS } from './vocabulary.ts'

/** The spellings code gives a dashed name: `dry-run` is `dryRun` or `dry_run` there. */
export function spellingsOf(word: string): string[] {
  if (!word.includes('-')) return []
  const camel = word.replace(/-([A-Za-z0-9])/g, (_match, char: string) => char.toUpperCase())
  return [camel, word.replaceAll('-', '_'), word.replaceAll('-', '_').toUpperCase()]
}

/** A long flag: `--dry-run`; `--no-color` is found as `no-color` or as `color`. */
export function flagOf(flag: string, row: number): Found | undefined {
  const word = /^--([A-Za-z][A-Za-z0-9_-]*[A-Za-z0-9])(?:=.*)?$/.exec(flag)?.[1]
  if (word === undefined) return undefined
  const negated = /^no-(.+)$/.exec(word)?.[1]
  const spellings = [...spellingsOf(word), ...(negated ? [negated, ...spellingsOf(negated)] : [])]
  return { shown: `--${word}`, kind: 'flag', parts: [part(word, 'word', spellings)], row }
}

const VARIABLE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z]{3,}$/

function variableOf(name: string, row: number): Found[] {
  return VARIABLE.test(name) ? [{ shown: name, kind: 'variable', parts: [part(name, 'word')], row }] : []
}

const METHODS = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/i
const PARAMETER = /^(?::.*|\{.*\}|<.*>|\[.*\]|\*|\$.*|[0-9a-f-]*\d[0-9a-f-]*)$/i

/** An HTTP route's fixed segments, from a path or a URL: `GET /users/{id}/posts` claims `users` and `posts`. */
export function routeOf(method: string, target: string, row: number): Found | undefined {
  // A URL's path, as written: `{id}` stays a parameter.
  let path = target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '')
  path = path.replace(/[?#].*$/, '')
  if (!path.startsWith('/')) return undefined
  const fixed = path.split('/').filter((segment) => segment !== '' && !PARAMETER.test(segment))
  if (fixed.length === 0 || !fixed.every((segment) => /^[A-Za-z_][\w-]*$/.test(segment))) return undefined
  const parts = fixed.map((segment) => part(segment, 'word', spellingsOf(segment)))
  return { shown: `${method.toUpperCase()} ${path}`, kind: 'route', parts, row }
}

const PROMPT = /^\s*(?:[$%>]|PS [^>]*>)\s+/
const WORDS = /"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+/g
const PREFIXES = new Set(['sudo', 'env', 'time', 'nohup', 'exec', 'command', 'npx', 'bunx', 'pnpx'])
const RUNNERS = /^(?:npm|pnpm|yarn|bun)\s+(?:exec|dlx|x)\s+/
const HTTP_CLIENTS = new Set(['curl', 'wget', 'http', 'https', 'xh'])

/**
 * The names in command lines. With `prompted` (a console session), only lines after a prompt are commands; the rest
 * is output. A line ending in `\` goes on on the next.
 */
export function commandNames(lines: readonly string[], added: (row: number) => boolean, prompted: boolean): Found[] {
  const found: Found[] = []
  let continued = false
  for (const [row, line] of lines.entries()) {
    // A line that starts with a tool's name is a command written without its prompt.
    const isCommand: boolean =
      continued || !prompted || PROMPT.test(line) || OUTSIDE_TOOLS.has(line.trim().split(/\s+/)[0] ?? '')
    const text = line
      .replace(continued ? /^$/ : PROMPT, '')
      .replace(/(^|\s)#.*$/, '')
      .trimEnd()
    continued = isCommand && /[\\`^]$/.test(text)
    if (!added(row)) continue
    // A program's output (its help, say) names its flags too.
    if (!isCommand) found.push(...flagsIn(line.trim().split(/[\s|,[\]]+/), row))
    if (!isCommand) continue
    for (const command of text.replace(/[\\`^]$/, '').split(/\s*(?:&&|\|\||;|\||&)\s*/)) {
      found.push(...commandLine(command.replace(RUNNERS, 'npx '), row))
    }
  }
  return found
}

/** One command: its variables, then, for a program of the project's, the program, its subcommand and its flags. */
function commandLine(command: string, row: number): Found[] {
  const words = (command.match(WORDS) ?? []).map((word) => word.replace(/^(["'])(.*)\1$/, '$2'))
  const found: Found[] = []
  let at = 0
  for (; at < words.length; at++) {
    const word = words[at] ?? ''
    const assigned = /^(?:\$env:)?([A-Za-z_][A-Za-z0-9_]*)=/.exec(word)?.[1]
    if (assigned !== undefined) found.push(...variableOf(assigned, row))
    else if (!PREFIXES.has(word) && !/^(?:export|set)$/.test(word) && !(word.startsWith('-') && at > 0)) break
  }
  found.push(...referencedVariables(command, row))
  const program = words[at] ?? ''
  const name = program.replace(/^(@[^/]+\/)?([^@]+)(@.*)?$/, '$2')
  if (HTTP_CLIENTS.has(program)) return [...found, ...httpCall(words.slice(at + 1), row)]
  if (program === '' || OUTSIDE_TOOLS.has(name) || /^(?:export|set)$/.test(program)) return found
  // A program's name is lower-case or mixed; a capital word (`RUN`, `CMD`) is an instruction of some other file.
  if (/^[A-Z][A-Z0-9_]*$/.test(name)) return found
  if (/^[A-Za-z][\w-]*$/.test(name)) found.push(commandOf(name, row))
  const args = words.slice(at + 1)
  const subcommand = args[0]
  if (subcommand !== undefined && /^[a-z][a-z0-9-]*[a-z0-9]$/.test(subcommand)) found.push(commandOf(subcommand, row))
  return [...found, ...flagsIn(args, row)]
}

const commandOf = (word: string, row: number): Found => ({
  shown: word,
  kind: 'command',
  parts: [part(word, 'word', spellingsOf(word))],
  row
})

/** The long flags among a command's words (`--port 3000`, `--port=3000`, `-p, --port <number>`). */
export function flagsIn(words: readonly string[], row: number): Found[] {
  return words.flatMap((word) => flagOf(word.replace(/,$/, ''), row) ?? [])
}

function referencedVariables(command: string, row: number): Found[] {
  return [...command.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].flatMap((match) => variableOf(match[1] ?? '', row))
}

/** `curl -X POST https://host/v1/users -H ...`: the route, when the call is an API call (a method, data or a header). */
function httpCall(words: readonly string[], row: number): Found[] {
  const url = words.find((word) => /^(?:https?:\/\/|localhost[:/])/.test(word))
  const asksApi = words.some((word) => /^(?:-X|--request|-d|--data.*|--json|-H|--header|-F|--form)$/.test(word))
  if (url === undefined || !asksApi) return []
  const method = words[words.findIndex((word) => word === '-X' || word === '--request') + 1]
  const explicit = words.some((word) => word === '-X' || word === '--request')
  const route = routeOf(
    explicit && method && METHODS.test(method) ? method : 'GET',
    url.replace(/^localhost/, 'http://localhost'),
    row
  )
  return route ? [route] : []
}

/** The keys of configuration lines, by format: JSON's quoted keys, YAML's `key:`, TOML's and INI's `key =`. */
export function configNames(lines: readonly string[], added: (row: number) => boolean, format: string): Found[] {
  const patterns: Record<string, RegExp[]> = {
    json: [/"((?:[^"\\]|\\.)+)"\s*:/g, /^\s*([A-Za-z_$][\w$-]*)\s*:/g],
    yaml: [/^\s*(?:-\s+)?([A-Za-z_][\w.-]*)\s*:(?=\s|$)/g],
    toml: [/^\s*\[{1,2}([\w.-]+)\]{1,2}/g, /^\s*([A-Za-z_][\w.-]*)\s*=/g],
    env: [/^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/g]
  }
  return lines.flatMap((line, row) => {
    if (!added(row) || /^\s*(?:#|\/\/|;)/.test(line)) return []
    return (patterns[format] ?? []).flatMap((pattern) =>
      [...line.matchAll(pattern)].flatMap((match): Found[] => {
        const key = match[1] ?? ''
        if (format === 'env') return variableOf(key, row).concat(VARIABLE.test(key) ? [] : [keyOf(key, row)])
        return /^[A-Za-z_$][\w$.-]*$/.test(key) ? [keyOf(key, row)] : []
      })
    )
  })
}

function keyOf(key: string, row: number): Found {
  const parts: Part[] = key.split('.').map((segment) => part(segment, 'word', spellingsOf(segment)))
  return { shown: key, kind: 'key', parts, row }
}

/** `GET /users/{id}` lines, as an `http` block shows a request. */
export function requestNames(lines: readonly string[], added: (row: number) => boolean): Found[] {
  return lines.flatMap((line, row) => {
    const match = /^\s*([A-Z]+)\s+(\S+)/.exec(line)
    if (!added(row) || !match || !METHODS.test(match[1] ?? '')) return []
    return routeOf(match[1] ?? '', match[2] ?? '', row) ?? []
  })
}
