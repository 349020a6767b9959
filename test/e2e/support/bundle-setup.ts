// The end-to-end tests run the bundle of the src/ being tested, never a stale dist/: this global setup runs dist/ when
// `npm run bundle` built it from these very sources, else builds build/test-bundle with the same script, again only
// when the sources changed. That build runs while the unit tests do; each end-to-end file waits for it
// (bundle-ready.ts). ACTION_BUNDLE=<folder> runs the tests against another bundle instead (an earlier dist/).
import { execFile } from 'node:child_process'
import { rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'
import { isBuildOf, sourceHash } from '../../../scripts/bundle-stamp.ts'
import { ROOT } from '../../../sim/run-action.ts'

declare module 'vitest' {
  interface ProvidedContext {
    /** The bundle's entry, to run as the runner runs `runs.main`. */
    bundleEntry: string
    /** The sources the bundle is being built from, while it is; empty when it is ready. */
    bundleBuilding: string
  }
}

const DIST = join(ROOT, 'dist')
export const TEST_BUNDLE = join(ROOT, 'build', 'test-bundle')
/** Written with the build's error output when the build fails. */
export const BUILD_FAILURE = join(ROOT, 'build', 'test-bundle.failed')

async function build(): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'bundle.ts'), TEST_BUNDLE], { cwd: ROOT })
  } catch (error) {
    const output = error instanceof Error && 'stderr' in error ? String(error.stderr) : String(error)
    await writeFile(BUILD_FAILURE, output || 'the build ended without saying why')
  }
}

async function upToDate(hash: string): Promise<string | undefined> {
  for (const folder of [DIST, TEST_BUNDLE]) if (await isBuildOf(folder, hash)) return folder
  return undefined
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env['ACTION_BUNDLE']
  const hash = given ? '' : await sourceHash()
  const ready = given ? resolve(given) : await upToDate(hash)
  project.provide('bundleEntry', join(ready ?? TEST_BUNDLE, 'index.js'))
  project.provide('bundleBuilding', ready === undefined ? hash : '')
  if (ready !== undefined) return undefined
  await rm(BUILD_FAILURE, { force: true })
  const building = build()
  return () => building
}
