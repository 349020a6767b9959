// The map of src/ stays one a newcomer reads in minutes: rooms along the run's story, each importing only the rooms
// below it (type imports too), no circle between files, files that hold one idea whole, functions that fit on a
// screen. CONTRIBUTING.md draws the same map.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..', '..', 'src')

/**
 * The layers from the ground up: a file may import its own room and the layers below it, never one above, and never
 * a sibling room of its own layer (no mode imports another mode).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['text'],
  ['runner'],
  ['inputs'],
  ['transport'],
  ['admin-api'],
  ['github'],
  ['prompt'],
  ['wait'],
  ['report'],
  ['decide'],
  ['after-job'],
  ['modes/single', 'modes/pair', 'modes/batch', 'modes/requests', 'modes/sweep'],
  ['.']
]

/** How many files each room may hold: room to grow where the idea falls, not where one total does. */
const BUDGETS: Readonly<Record<string, number>> = {
  text: 5,
  runner: 4,
  inputs: 8,
  transport: 4,
  'admin-api': 6,
  github: 21,
  prompt: 7,
  wait: 4,
  report: 7,
  decide: 6,
  'after-job': 13,
  'modes/single': 2,
  'modes/pair': 3,
  'modes/batch': 3,
  'modes/requests': 2,
  'modes/sweep': 5,
  '.': 5
}

const MAX_FILE_LINES = 300
const MAX_FUNCTION_LINES = 60
const MAX_CLASS_LINES = 150

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []
  )
}

interface Parsed {
  readonly file: string
  readonly lines: number
  /** The files of src/ it imports or re-exports, type imports included. */
  readonly imports: readonly string[]
  readonly functions: readonly { readonly name: string; readonly lines: number }[]
  readonly classes: readonly { readonly name: string; readonly lines: number }[]
}

function parse(file: string): Parsed {
  const text = readFileSync(file, 'utf8')
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const imports: string[] = []
  const functions: { name: string; lines: number }[] = []
  const classes: { name: string; lines: number }[] = []
  const lineOf = (position: number): number => source.getLineAndCharacterOfPosition(position).line
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) &&
            node.expression.kind === ts.SyntaxKind.ImportKeyword &&
            node.arguments[0] &&
            ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : undefined
    if (specifier?.startsWith('.')) imports.push(resolve(dirname(file), specifier))
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const name = node.name?.getText(source) ?? '(anonymous)'
      functions.push({ name, lines: lineOf(node.end) - lineOf(node.getStart(source)) + 1 })
    }
    if (ts.isClassDeclaration(node)) {
      const name = node.name?.getText(source) ?? '(anonymous)'
      classes.push({ name, lines: lineOf(node.end) - lineOf(node.getStart(source)) + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return { file, lines: text.split('\n').length - 1, imports, functions, classes }
}

const files = sourceFiles(SRC).map(parse)
const name = (file: string): string => relative(SRC, file)
const roomOf = (file: string): string => {
  const [folder = '.', second] = dirname(name(file)).split('/')
  return folder === 'modes' && second !== undefined ? `modes/${second}` : folder
}
const layerOf = (room: string): number => LAYERS.findIndex((rooms) => rooms.includes(room))

describe('the map of src/', () => {
  it('has each file in a room of the map, and no room past its budget', () => {
    const rooms = files.map((parsed) => roomOf(parsed.file))
    expect(rooms.filter((room) => layerOf(room) < 0 || BUDGETS[room] === undefined)).toEqual([])
    const over = Object.entries(BUDGETS)
      .map(([room, budget]) => ({ room, count: rooms.filter((each) => each === room).length, budget }))
      .filter(({ count, budget }) => count > budget)
      .map(({ room, count, budget }) => `${room}: ${count} files, budget ${budget}`)
    expect(over).toEqual([])
  })

  it('imports only downhill: a room uses its own files and the layers below it, never a sibling room', () => {
    const wrong = files.flatMap((parsed) => {
      const from = roomOf(parsed.file)
      return parsed.imports
        .filter((target) => target.startsWith(SRC))
        .flatMap((target) => {
          const to = roomOf(target)
          const where = `${name(parsed.file)} -> ${name(target)}`
          if (layerOf(to) > layerOf(from)) return [`uphill: ${where}`]
          if (layerOf(to) === layerOf(from) && to !== from) return [`sideways: ${where}`]
          return []
        })
    })
    expect(wrong).toEqual([])
  })

  it('has no circle of imports between files, type imports included', () => {
    const graph = new Map(files.map((parsed) => [parsed.file, parsed.imports]))
    const circles: string[] = []
    const state = new Map<string, 'visiting' | 'done'>()
    const walk = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'visiting') {
        circles.push([...path.slice(path.indexOf(file)), file].map(name).join(' -> '))
        return
      }
      state.set(file, 'visiting')
      for (const target of graph.get(file) ?? []) walk(target, [...path, file])
      state.set(file, 'done')
    }
    for (const file of graph.keys()) walk(file, [])
    expect(circles).toEqual([])
  })

  it('holds one idea whole in each file and each class, and functions that fit on a screen', () => {
    expect(files.filter((parsed) => parsed.lines > MAX_FILE_LINES).map((parsed) => name(parsed.file))).toEqual([])
    const long = files.flatMap((parsed) =>
      parsed.functions
        .filter((fn) => fn.lines > MAX_FUNCTION_LINES)
        .map((fn) => `${name(parsed.file)} ${fn.name} (${fn.lines} lines)`)
    )
    expect(long).toEqual([])
    const large = files.flatMap((parsed) =>
      parsed.classes
        .filter((found) => found.lines > MAX_CLASS_LINES)
        .map((found) => `${name(parsed.file)} ${found.name} (${found.lines} lines)`)
    )
    expect(large).toEqual([])
  })
})
