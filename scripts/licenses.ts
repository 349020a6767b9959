// The licenses of what dist/ bundles. `npm run bundle` writes dist/licenses.txt with entries() and refuses a package
// whose license is not on the allow-list; test/repo/bundled-licenses.test.ts reads the file back with parse() and
// checks it again, so a dist/ built otherwise cannot carry an unknown license either.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Permissive licenses (SPDX identifiers) that ask only that their notice travel with the code, as
 * dist/licenses.txt does. Anything else (a copyleft license, "UNLICENSED", "SEE LICENSE IN ...") needs a person to
 * read it before it is bundled into an action others run.
 */
export const ALLOWED_LICENSES: readonly string[] = [
  'MIT',
  'ISC',
  'Apache-2.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  '0BSD',
  'BlueOak-1.0.0'
]

/**
 * Packages whose package.json states no license, with the license their license file was read to grant. Add one only
 * after reading that file; the check then takes this license for the package.
 */
export const LICENSE_FILE_READ: Readonly<Record<string, string>> = {}

/** The license a package.json states: `license` (an SPDX expression), or the older `{ type }` and `licenses` forms. */
export function declaredLicense(manifest: { license?: unknown; licenses?: unknown }): string | undefined {
  const typeOf = (value: unknown): string | undefined =>
    typeof value === 'string'
      ? value
      : typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string'
        ? value.type
        : undefined
  const license = typeOf(manifest.license)
  if (license !== undefined) return license.trim() || undefined
  if (!Array.isArray(manifest.licenses)) return undefined
  const types = manifest.licenses.map(typeOf)
  if (types.length === 0 || types.some((type) => type === undefined)) return undefined
  return types.length === 1 ? types[0] : `(${types.join(' OR ')})`
}

/**
 * Whether an SPDX license expression is allowed: an identifier on the list; `A OR B` when either is (we may choose);
 * `A AND B` when both are; parentheses group; case does not matter. `A WITH exception` and anything unparseable
 * are not.
 */
export function isAllowed(expression: string): boolean {
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? []
  let at = 0
  const peek = (): string | undefined => tokens[at]
  const fail = (): never => {
    throw new Error(`not an SPDX expression: ${expression}`)
  }
  const term = (): boolean => {
    const token = tokens[at++] ?? fail()
    if (token === '(') {
      const value = or()
      if (tokens[at++] !== ')') fail()
      return value
    }
    if (/^(AND|OR|WITH|\))$/i.test(token)) fail()
    if (peek()?.toUpperCase() === 'WITH') {
      at += 2
      if (at > tokens.length) fail()
      return false
    }
    return ALLOWED_LICENSES.some((license) => license.toLowerCase() === token.toLowerCase())
  }
  const and = (): boolean => {
    let value = term()
    while (peek()?.toUpperCase() === 'AND') {
      at++
      value = term() && value
    }
    return value
  }
  const or = (): boolean => {
    let value = and()
    while (peek()?.toUpperCase() === 'OR') {
      at++
      value = and() || value
    }
    return value
  }
  try {
    const value = or()
    return at === tokens.length && value
  } catch {
    return false
  }
}

/** Why a bundled package may not be bundled under `license` (its package.json's), or undefined when it may. */
export function licenseProblem(name: string, license: string | undefined): string | undefined {
  const stated = license === undefined || license === '' ? LICENSE_FILE_READ[name] : license
  if (stated === undefined)
    return (
      `${name} states no license in its package.json: read its license file and, if it grants one of ` +
      `${ALLOWED_LICENSES.join(', ')}, add it to LICENSE_FILE_READ in scripts/licenses.ts`
    )
  if (!isAllowed(stated))
    return (
      `${name} is under "${stated}", which is not on the allow-list (${ALLOWED_LICENSES.join(', ')}): ` +
      `do not bundle it, or have its license read and add it to ALLOWED_LICENSES in scripts/licenses.ts`
    )
  return undefined
}

/** What keeps these packages from being bundled: a license not on the allow-list, or no license text to carry. */
export function entryProblems(list: readonly Entry[]): string[] {
  return list.flatMap(({ name, license, text }) =>
    [
      licenseProblem(name, license),
      text === '' ? `${name} ships no license file, so dist/licenses.txt cannot carry its notice` : undefined
    ].filter((problem) => problem !== undefined)
  )
}

export interface Entry {
  name: string
  /** The package.json's license, '' when it states none. */
  license: string
  text: string
}

/** dist/licenses.txt: for each package its name, its license, its license file's text; a blank line between. */
export function entries(list: readonly Entry[]): string {
  return list.map(({ name, license, text }) => `${name}\n${license}\n${text}\n`).join('\n')
}

const PACKAGE_NAME = /^(@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*$/

/**
 * Reads dist/licenses.txt back: an entry starts at a package name that begins the file or follows a blank line. A
 * license text with such a line in it would read as an extra entry; the test compares the names with the bundled
 * packages, so that cannot pass unnoticed.
 */
export function parse(text: string): Entry[] {
  const lines = text.split('\n')
  const starts = lines.flatMap((line, index) =>
    (index === 0 || lines[index - 1] === '') && PACKAGE_NAME.test(line) && index + 1 < lines.length ? [index] : []
  )
  return starts.map((start, index) => ({
    name: lines[start] ?? '',
    license: lines[start + 1] ?? '',
    text: lines
      .slice(start + 2, starts[index + 1] ?? lines.length)
      .join('\n')
      .trim()
  }))
}

/** The packages each file of `dist` was built from, as its source maps name them. */
export async function bundledPackages(dist: string): Promise<string[]> {
  const names = new Set<string>()
  for (const file of (await readdir(dist)).filter((name) => name.endsWith('.js.map'))) {
    const { sources } = JSON.parse(await readFile(join(dist, file), 'utf8')) as { sources: string[] }
    for (const source of sources) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1]
      if (name !== undefined) names.add(name)
    }
  }
  return [...names].sort()
}
