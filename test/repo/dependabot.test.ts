// Dependabot keeps the npm packages and the pinned actions current: weekly, the toolkit's minor updates together.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse } from 'yaml'
import { expect, it } from 'vitest'
import { ROOT } from './workflow-files.ts'

interface Update {
  'package-ecosystem': string
  directory: string
  schedule: { interval: string }
  groups?: Record<string, { patterns?: string[]; 'dependency-type'?: string; 'update-types'?: string[] }>
}

const config = async (): Promise<{ version: number; updates: Update[] }> =>
  parse(await readFile(join(ROOT, '.github', 'dependabot.yml'), 'utf8')) as { version: number; updates: Update[] }

const matches = (pattern: string, name: string): boolean =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(name)

it('updates the npm packages and the workflows’ actions every week', async () => {
  const { version, updates } = await config()
  expect(version).toBe(2)
  expect(
    updates.map((update) => [update['package-ecosystem'], update.directory, update.schedule.interval]).sort()
  ).toEqual([
    ['github-actions', '/', 'weekly'],
    ['npm', '/', 'weekly']
  ])
})

it('groups the minor and patch updates of every @actions/ and @octokit/ package the action depends on', async () => {
  const { updates } = await config()
  const toolkit = updates.find((update) => update['package-ecosystem'] === 'npm')?.groups?.['toolkit']
  expect(toolkit?.['update-types']).toEqual(['minor', 'patch'])
  const { dependencies } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
  }
  const names = Object.keys(dependencies).filter((name) => /^@(actions|octokit)\//.test(name))
  expect(names.length).toBeGreaterThan(0)
  expect(names.filter((name) => !(toolkit?.patterns ?? []).some((pattern) => matches(pattern, name)))).toEqual([])
})
