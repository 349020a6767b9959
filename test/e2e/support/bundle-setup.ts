// The end-to-end tests run the bundle of the src/ being tested, never a stale dist/: this global setup builds it
// into build/test-bundle with the same script as `npm run bundle`, and builds again only when the sources changed.
// ACTION_BUNDLE=<folder> runs the tests against another bundle instead (an earlier dist/, say).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { ROOT } from '../../../sim/run-action.ts'

declare module 'vitest' {
  interface ProvidedContext {
    /** The bundle's entry, to run as the runner runs `runs.main`. */
    bundleEntry: string
  }
}

const OUT = join(ROOT, 'build', 'test-bundle')
const STAMP = join(OUT, 'source-hash')
/** What the bundle is built from. */
const INPUTS = ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/bundle.ts']

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true, recursive: true }).catch(() => undefined)
  if (entries === undefined) return [path]
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

async function sourceHash(): Promise<string> {
  const hash = createHash('sha256')
  const files = (await Promise.all(INPUTS.map((input) => filesUnder(join(ROOT, input))))).flat().sort()
  for (const file of files)
    hash
      .update(file)
      .update('\0')
      .update(await readFile(file))
      .update('\0')
  return hash.digest('hex')
}

export default async function setup(project: TestProject): Promise<void> {
  const given = process.env['ACTION_BUNDLE']
  if (given) {
    project.provide('bundleEntry', join(resolve(given), 'index.js'))
    return
  }
  const hash = await sourceHash()
  const built = existsSync(STAMP) && (await readFile(STAMP, 'utf8')) === hash
  if (!built) {
    try {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.ts'), OUT], { cwd: ROOT, stdio: 'pipe' })
    } catch (error) {
      const output = error instanceof Error && 'stderr' in error ? String(error.stderr) : ''
      throw new Error(`The bundle of src/ for the end-to-end tests did not build:\n${output}`, { cause: error })
    }
    await writeFile(STAMP, hash)
  }
  project.provide('bundleEntry', join(OUT, 'index.js'))
}
