// Every package bundled into dist/ is under a license on the allow-list (scripts/licenses.ts), and dist/licenses.txt
// carries each one's license text. An unknown license fails here, naming the package, even in a dist/ that was not
// built by `npm run bundle`.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import {
  ALLOWED_LICENSES,
  bundledPackages,
  declaredLicense,
  entries,
  entryProblems,
  isAllowed,
  licenseProblem,
  parse
} from '../../scripts/licenses.ts'
import { ROOT } from './workflow-files.ts'

const DIST = join(ROOT, 'dist')
const licensesFile = async (): Promise<string> => readFile(join(DIST, 'licenses.txt'), 'utf8')

it('bundles only packages under a license on the allow-list, each with its license text', async () => {
  expect(entryProblems(parse(await licensesFile()))).toEqual([])
})

it('lists in dist/licenses.txt exactly the packages bundled into dist/', async () => {
  const bundled = await bundledPackages(DIST)
  expect(bundled.length).toBeGreaterThan(0)
  expect(
    parse(await licensesFile())
      .map(({ name }) => name)
      .sort()
  ).toEqual(bundled)
})

it('fails on a package under another license, naming it', async () => {
  const text =
    (await licensesFile()).trimEnd() +
    '\n\n' +
    entries([{ name: 'left-pad-gpl', license: 'GPL-3.0-only', text: 'GNU GENERAL PUBLIC LICENSE' }])
  expect(entryProblems(parse(text))).toEqual([expect.stringContaining('left-pad-gpl is under "GPL-3.0-only"')])
})

it('fails on a package without its license text, naming it', () => {
  expect(entryProblems([{ name: 'bare', license: 'MIT', text: '' }])).toEqual([
    'bare ships no license file, so dist/licenses.txt cannot carry its notice'
  ])
})

it('fails on a package that states no license, naming it', () => {
  expect(licenseProblem('mystery', '')).toContain('mystery states no license in its package.json')
  expect(licenseProblem('mystery', undefined)).toContain('mystery states no license')
})

it('reads the license as package.json states it, in the older forms too', () => {
  expect(declaredLicense({ license: 'MIT' })).toBe('MIT')
  expect(declaredLicense({ license: { type: 'ISC' } })).toBe('ISC')
  expect(declaredLicense({ licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] })).toBe('(MIT OR Apache-2.0)')
  expect(declaredLicense({ license: ' ' })).toBeUndefined()
  expect(declaredLicense({})).toBeUndefined()
})

it.each([
  ['MIT', true],
  ['BlueOak-1.0.0', true],
  ['(MIT OR Apache-2.0)', true],
  ['(MIT OR GPL-3.0-or-later)', true],
  ['GPL-3.0-or-later OR MIT', true],
  ['MIT AND ISC', true],
  ['(MIT AND BSD-3-Clause) OR GPL-2.0-only', true],
  ['MIT AND GPL-2.0-only', false],
  ['(MIT OR GPL-2.0-only) AND LGPL-3.0-only', false],
  ['GPL-3.0-only', false],
  ['Apache-2.0 WITH LLVM-exception', false],
  ['UNLICENSED', false],
  ['SEE LICENSE IN LICENSE.md', false],
  ['(MIT', false],
  ['MIT OR', false],
  ['mit', true]
])('takes %s as allowed: %s', (expression, allowed) => {
  expect(isAllowed(expression)).toBe(allowed)
})

it('allows the licenses the allow-list names, each an SPDX identifier', () => {
  for (const license of ALLOWED_LICENSES) expect(isAllowed(license)).toBe(true)
  expect(ALLOWED_LICENSES).toEqual(expect.arrayContaining(['MIT', 'ISC', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause']))
})
