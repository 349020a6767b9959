// The end-to-end tests run the bundle of the src/ being tested, never a stale dist/: this global setup runs dist/ when
// `npm run bundle` built it from these very sources, else builds build/test-bundle with the same script, again only
// when the sources changed. ACTION_BUNDLE=<folder> runs the tests against another bundle instead (an earlier dist/).
import { execFileSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { isBuildOf, sourceHash } from '../../../scripts/bundle-stamp.ts'
import { ROOT } from '../../../sim/run-action.ts'

declare module 'vitest' {
  interface ProvidedContext {
    /** The bundle's entry, to run as the runner runs `runs.main`. */
    bundleEntry: string
  }
}

const DIST = join(ROOT, 'dist')
const OUT = join(ROOT, 'build', 'test-bundle')

async function upToDateBundle(): Promise<string> {
  const hash = await sourceHash()
  for (const folder of [DIST, OUT]) if (await isBuildOf(folder, hash)) return folder
  try {
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.ts'), OUT], { cwd: ROOT, stdio: 'pipe' })
  } catch (error) {
    const output = error instanceof Error && 'stderr' in error ? String(error.stderr) : ''
    throw new Error(`The bundle of src/ for the end-to-end tests did not build:\n${output}`, { cause: error })
  }
  return OUT
}

export default async function setup(project: TestProject): Promise<void> {
  const given = process.env['ACTION_BUNDLE']
  const folder = given ? resolve(given) : await upToDateBundle()
  project.provide('bundleEntry', join(folder, 'index.js'))
}
