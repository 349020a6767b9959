import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { ROOT } from './workflow-files.ts'

it('runs on the Node major the action declares (runs.using: node24)', () => {
  expect(process.version).toMatch(/^v24\./)
})

it('starts without Octokit: dist/index.js holds none of it, and only a run that uses GitHub loads its chunks', async () => {
  const dist = join(ROOT, 'dist')
  const octokitIn = async (file: string): Promise<string[]> => {
    const { sources } = JSON.parse(await readFile(join(dist, `${file}.map`), 'utf8')) as { sources: string[] }
    return sources.filter((source) => source.includes('node_modules/@octokit/'))
  }
  expect(await octokitIn('index.js')).toEqual([])
  const chunks = (await readdir(dist)).filter((name) => /^\d+\.index\.js$/.test(name))
  const loaded = await Promise.all(chunks.map(octokitIn))
  expect(loaded.flat().some((source) => source.includes('@octokit/rest/'))).toBe(true)
})
