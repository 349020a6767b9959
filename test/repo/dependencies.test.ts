// The packages the action is built on, each in its role, and exactly one copy of undici everywhere.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { ROOT } from '../../sim/run-action.ts'

const readJson = async <T>(...path: string[]): Promise<T> =>
  JSON.parse(await readFile(join(ROOT, ...path), 'utf8')) as T

it('depends on the toolkit, Octokit and undici, and builds with ncc and tests with vitest', async () => {
  const pkg = await readJson<{ dependencies: Record<string, string>; devDependencies: Record<string, string> }>(
    'package.json'
  )
  expect(Object.keys(pkg.dependencies)).toEqual(
    expect.arrayContaining(['@actions/core', '@actions/github', '@octokit/rest', 'undici'])
  )
  expect(Object.keys(pkg.devDependencies)).toEqual(
    expect.arrayContaining(['@vercel/ncc', 'vitest', '@github/local-action'])
  )
})

it('locks exactly one undici', async () => {
  const lock = await readJson<{ packages: Record<string, unknown> }>('package-lock.json')
  expect(Object.keys(lock.packages).filter((path) => /(^|\/)node_modules\/undici$/.test(path))).toEqual([
    'node_modules/undici'
  ])
})

it('bundles exactly one undici into dist/', async () => {
  const roots = new Set<string>()
  for (const file of (await readdir(join(ROOT, 'dist'))).filter((name) => name.endsWith('.js.map'))) {
    const { sources } = await readJson<{ sources: string[] }>('dist', file)
    for (const source of sources) {
      const root = /^(.*node_modules\/undici)\//.exec(source)?.[1]
      if (root !== undefined) roots.add(root.replace(/^.*?(node_modules\/)/, '$1'))
    }
  }
  expect([...roots]).toEqual(['node_modules/undici'])
})
