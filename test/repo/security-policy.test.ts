// SECURITY.md tells how to report a vulnerability privately, which versions get fixes (the current major, as
// package.json's version says), and links to what the action promises about the key.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { ROOT } from './workflow-files.ts'

const policy = async (): Promise<string> => readFile(join(ROOT, 'SECURITY.md'), 'utf8')

it('asks for reports through private vulnerability reporting, not public issues', async () => {
  const text = await policy()
  expect(text).toContain('](../../security/advisories/new)')
  expect(text).toMatch(/do not open a\s+public issue/)
})

it("names the current major version, package.json's, as the one that gets fixes", async () => {
  const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }
  const major = `v${version.split('.')[0] ?? ''}`
  const supported = /## Supported versions\n([\s\S]*?)\n## /.exec(await policy())?.[1] ?? ''
  expect(supported).toContain(`| \`${major}\`, the newest \`${major}.x.y\` release`)
})

it('summarises the promises about the key and links to the page that makes them', async () => {
  const text = await policy()
  expect(text).toContain('](docs/reliability-and-security.md)')
  for (const promise of ['masked', 'never logged', '`base-url`', 'https', 'redirect', '`***`'])
    expect(text).toContain(promise)
})
