// The names a code example makes up, which claim nothing about the code: its variables, parameters, functions,
// classes, and what it imports under a name of its choosing. A name imported or destructured by its own name
// (`import { connect }`, `const { data } = ...`) is the example's and a claim about the code too.
import { closingOf, type Token } from './code-tokens.ts'

const DECLARE = new Set(['const', 'let', 'var', 'val', 'auto', 'my', 'local'])
const FUNCTION = new Set(['function', 'def', 'fn', 'func', 'fun', 'sub'])
const TYPE = new Set(['class', 'struct', 'interface', 'enum', 'trait', 'type', 'module', 'record', 'protocol'])
const PARAM_BEFORE = new Set(['(', ',', '...', '*', '**', '&', 'mut'])
const NOT_METHODS = new Set(['if', 'for', 'while', 'switch', 'with', 'return', 'elif', 'until', 'unless'])

/** The example's own names: their spellings, and the tokens that declare them (which claim nothing there). */
export interface Locals {
  readonly names: Set<string>
  readonly declaring: Set<number>
  /**
   * Tokens that declare a name taken from something else by that name (`const { data } = ...`, `import { connect }
   * from 'pkg'`): still claims. Each with the module it is imported from, or '' when it is not imported.
   */
  readonly taken: Map<number, string>
  /** Names bound to a module as a whole (`const fs = require('fs')`, `import * as yaml from 'yaml'`), with the module. */
  readonly modules: Map<string, string>
}

/** The names the tokens declare, wherever in the example they are. */
export function localsOf(tokens: readonly Token[], language: string): Locals {
  const locals: Locals = { names: new Set(), declaring: new Set(), taken: new Map(), modules: new Map() }
  const declare = (at: number): void => {
    const token = tokens[at]
    if (token?.kind !== 'word') return
    locals.names.add(token.text)
    locals.declaring.add(at)
  }
  // A callback's parameters hold what the function it is handed to gives it: another package's function gives that
  // package's values (`app.post('/', (req, res) => ...)` after `const app = express()`).
  const declareParam = (at: number): void => {
    declare(at)
    const root = callRootAround(tokens, at)
    const module = root === undefined ? undefined : locals.modules.get(root)
    if (module !== undefined) locals.modules.set(tokens[at]?.text ?? '', module)
  }
  const text = (at: number): string => tokens[at]?.text ?? ''
  for (let at = 0; at < tokens.length; at++) {
    const word = tokens[at]?.kind === 'word' ? text(at) : ''
    if (DECLARE.has(word)) declarePattern(tokens, at + 1, locals, declare)
    else if (FUNCTION.has(word)) declareFunction(tokens, at + 1, text(at + 1) === '(' ? declareParam : declare)
    else if (TYPE.has(word) && tokens[at + 1]?.kind === 'word') declare(at + 1)
    else if (word === 'catch' && text(at + 1) === '(') declareParams(tokens, at + 1, declare)
    else if (/^(?:import|from|use)$/.test(word) && startsStatement(tokens, at))
      declareImport(tokens, at, locals, declare)
    else if (word === 'for' || word === 'lambda') declareUntil(tokens, at + 1, word === 'for' ? 'in' : ':', declare)
    else if (word === 'as' && language !== 'javascript') declare(at + 1)
    else if (text(at) === '=>') declareArrow(tokens, at, declareParam)
    else if (text(at) === '|' && /^(?:do|\{|\(|,|=|move)$/.test(text(at - 1)))
      declareUntil(tokens, at + 1, '|', declare)
    else if (text(at) === '$' && language !== 'shell') declare(at + 1)
    else if (word !== '' && !NOT_METHODS.has(word) && text(at + 1) === '(') declareMethod(tokens, at + 1, declare)
    if (word !== '' && startsStatement(tokens, at)) declareAssigned(tokens, at, declare)
  }
  return locals
}

/** The root of the call whose arguments hold the token: `app` for a callback in `app.post('/', (req, res) => ...)`. */
function callRootAround(tokens: readonly Token[], at: number): string | undefined {
  let depth = 0
  for (let back = at - 1; back >= 0 && back > at - 400; back--) {
    const text = tokens[back]?.text ?? ''
    if (/^[)\]}]$/.test(text)) depth++
    else if (/^[([{]$/.test(text) && depth > 0) depth--
    else if (text === '(' && tokens[back - 1]?.kind === 'word' && !FUNCTION.has(tokens[back - 1]?.text ?? '')) {
      let root = back - 1
      while (ACCESSED.test(tokens[root - 1]?.text ?? '') && tokens[root - 2]?.kind === 'word') root -= 2
      return tokens[root]?.text
    }
  }
  return undefined
}

const ACCESSED = /^(?:\.|\?\.)$/

function startsStatement(tokens: readonly Token[], at: number): boolean {
  const before = tokens[at - 1]
  const token = tokens[at]
  return !before || before.row !== token?.row || /^[;{}]$/.test(before.text)
}

/** `a = ...`, `a := ...`, `a, b = ...` at a statement's start. */
function declareAssigned(tokens: readonly Token[], at: number, declare: (at: number) => void): void {
  const names: number[] = []
  let next = at
  while (tokens[next]?.kind === 'word') {
    names.push(next)
    if (tokens[next + 1]?.text !== ',') break
    next += 2
  }
  const operator = tokens[(names.at(-1) ?? at) + 1]?.text ?? ''
  if (/^(?:=|:=|\+=|-=|\|\|=|\?\?=)$/.test(operator)) names.forEach(declare)
}

/** After `const`, `let`, `var`: a name, names separated by commas, or a destructuring pattern. */
function declarePattern(tokens: readonly Token[], at: number, locals: Locals, declare: (at: number) => void): void {
  const open = tokens[at]?.text
  if (open === '{' || open === '[') {
    const close = closingOf(tokens, at)
    const module = requiredModule(tokens, close + 1)
    for (let inner = at + 1; inner > 0 && inner < close; inner++) {
      if (tokens[inner]?.kind !== 'word') continue
      const after = tokens[inner + 1]?.text
      // `{ a: b }` takes member `a` under the name `b`; `{ a }` takes `a` under its own name.
      if (open === '{' && after === ':') {
        locals.taken.set(inner, module)
        continue
      }
      declare(inner)
      if (open === '{') locals.taken.set(inner, module)
    }
    return
  }
  for (let next = at; tokens[next]?.kind === 'word'; next += 2) {
    declare(next)
    const module = requiredModule(tokens, next + 1) || madeBy(tokens, next + 1, locals.modules)
    if (module !== '') locals.modules.set(tokens[next]?.text ?? '', module)
    if (tokens[next + 1]?.text !== ',') break
  }
}

/** The module of `= require('module')` or `= await import('module')` at `at`; '' for anything else. */
function requiredModule(tokens: readonly Token[], at: number): string {
  const words = tokens.slice(at, at + 6).map((token) => (token.kind === 'string' ? `'${token.text}` : token.text))
  const match = /^= (?:await )?(?:require|import) \( '([^ ]*)/.exec(words.join(' '))
  return match?.[1] ?? ''
}

/** The module of a value made from a name bound to it: `= express()`, `= new Redis()`, `= await yaml.parse(...)`. */
function madeBy(tokens: readonly Token[], at: number, modules: ReadonlyMap<string, string>): string {
  if (tokens[at]?.text !== '=') return ''
  let next = at + 1
  while (/^(?:new|await)$/.test(tokens[next]?.text ?? '')) next++
  return tokens[next]?.kind === 'word' ? (modules.get(tokens[next]?.text ?? '') ?? '') : ''
}

/** `function name(params)`, `def name(params)`, `func (r *T) Name(params)`. */
function declareFunction(tokens: readonly Token[], at: number, declare: (at: number) => void): void {
  let next = tokens[at]?.text === '*' ? at + 1 : at
  if (tokens[next]?.text === '(') {
    declareParams(tokens, next, declare)
    next = closingOf(tokens, next) + 1
    if (next <= 0) return
  }
  const name = tokens[next]?.kind === 'word' ? next++ : -1
  if (tokens[next]?.text === '<') next = closingOf(tokens, next) + 1
  if (next <= 0 || tokens[next]?.text !== '(') return
  declareParams(tokens, next, declare)
  // A signature without a body (`function glob(pattern: string): Promise<string[]>`) documents the code's function:
  // its name is a claim, not the example's own.
  const close = closingOf(tokens, next)
  const rest = tokens.slice(close + 1).filter((token) => token.row === tokens[close]?.row)
  const signature =
    rest.length > 0 && !rest.some((token) => /^(?:\{|=>)$/.test(token.text)) && rest.at(-1)?.text !== ':'
  if (name >= 0 && !signature) declare(name)
}

/** `name(params) {`: a method defined in the example; its parameters are its own, its name is not. */
function declareMethod(tokens: readonly Token[], open: number, declare: (at: number) => void): void {
  const close = closingOf(tokens, open)
  if (close < 0) return
  const after = tokens[close + 1]?.text
  if (after === '{' || (after === ':' && tokens[close + 2]?.row !== tokens[close]?.row)) {
    declareParams(tokens, open, declare)
  }
}

/** The parameters between the brackets at `open`, destructured ones included; not their types or defaults. */
export function declareParams(tokens: readonly Token[], open: number, declare: (at: number) => void): void {
  const close = closingOf(tokens, open)
  let depth = 0
  for (let at = open + 1; at > 0 && at < close; at++) {
    const text = tokens[at]?.text ?? ''
    if (/^[([{]$/.test(text)) depth++
    else if (/^[)\]}]$/.test(text)) depth--
    else if (tokens[at]?.kind === 'word') {
      const before = tokens[at - 1]?.text ?? ''
      if (depth === 0 ? PARAM_BEFORE.has(before) : /^(?:[{[,:]|\.\.\.)$/.test(before)) declare(at)
    }
  }
}

/** `(a, b) => ...`, `a => ...`, `(a: T): R => ...`. */
function declareArrow(tokens: readonly Token[], arrow: number, declare: (at: number) => void): void {
  const before = tokens[arrow - 1]
  if (before?.kind === 'word' && tokens[arrow - 2]?.text !== ':') {
    declare(arrow - 1)
    return
  }
  for (let back = arrow - 1; back >= 0 && back >= arrow - 8; back--) {
    if (tokens[back]?.text !== ')') continue
    for (let open = back - 1; open >= 0; open--) {
      if (tokens[open]?.text === '(' && closingOf(tokens, open) === back) {
        declareParams(tokens, open, declare)
        return
      }
    }
    return
  }
}

/** The names from `at` up to `end` (`for a, b in`, `lambda a, b:`, `|a, b|`), when only names and commas come between. */
function declareUntil(tokens: readonly Token[], at: number, end: string, declare: (at: number) => void): void {
  const names: number[] = []
  for (let next = at; next < tokens.length; next++) {
    const token = tokens[next]
    if (token?.text === end) {
      names.forEach(declare)
      return
    }
    if (token?.kind === 'word') names.push(next)
    else if (!/^[,*&()]$/.test(token?.text ?? '')) return
  }
}

/**
 * `import x from`, `import * as x`, `import { a, b as c }`, `from m import a, b as c`, `import m as n`, `use a::{b, c}`:
 * a name the example chose is its own; a name imported by its own name is its own and a claim too.
 */
function declareImport(tokens: readonly Token[], at: number, locals: Locals, declare: (at: number) => void): void {
  const listed = tokens[at]?.text !== 'import'
  let next = at + 1
  let module = moduleAfter(tokens, at)
  if (tokens[at]?.text === 'from') {
    // JavaScript's `from 'module'` ends an import; Python's `from module import ...` starts one.
    if (tokens[next]?.kind === 'string') return
    module = tokens[next]?.text ?? ''
    while (next < tokens.length && tokens[next]?.text !== 'import') next++
    next++
  }
  let depth = 0
  for (let row = tokens[at]?.row; next < tokens.length; next++) {
    const token = tokens[next]
    if (!token || token.kind === 'string' || /^(?:;|from)$/.test(token.text)) return
    if (depth === 0 && token.row !== row) return
    row = token.row
    if (/^[{(]$/.test(token.text)) depth++
    else if (/^[})]$/.test(token.text)) depth--
    if (token.kind !== 'word' || /^(?:type|typeof)$/.test(token.text)) continue
    const after = tokens[next + 1]?.text ?? ''
    if (token.text === 'as') {
      declare(next + 1)
      if (tokens[next - 1]?.text === '*' && module !== '') locals.modules.set(tokens[next + 1]?.text ?? '', module)
      next++
    } else if (/^(?:as|::|\.)$/.test(after)) {
      locals.taken.set(next, module)
    } else {
      declare(next)
      if (listed || tokens[next - 1]?.text !== 'import') locals.taken.set(next, module)
      else if (module !== '') locals.modules.set(token.text, module)
    }
  }
}

/** The module a JavaScript import names: the string after its `from`, within the statement. */
function moduleAfter(tokens: readonly Token[], at: number): string {
  for (let next = at + 1; next < tokens.length && next < at + 200; next++) {
    const token = tokens[next]
    if (token?.text === ';' || (token?.kind === 'word' && token.text === 'import')) return ''
    if (token?.text === 'from' && tokens[next + 1]?.kind === 'string') return tokens[next + 1]?.text ?? ''
  }
  return ''
}
