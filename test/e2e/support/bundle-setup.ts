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

/** The bundle already built from these sources (or the one ACTION_BUNDLE names), if any, and the sources' hash. */
export async function readyBundle(): Promise<{ readonly folder: string | undefined; readonly hash: string }> {
  const given = process.env['ACTION_BUNDLE']
  if (given) return { folder: resolve(given), hash: '' }
  const hash = await sourceHash()
  for (const folder of [DIST, TEST_BUNDLE]) if (await isBuildOf(folder, hash)) return { folder, hash }
  return { folder: undefined, hash }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const { folder, hash } = await readyBundle()
  project.provide('bundleEntry', join(folder ?? TEST_BUNDLE, 'index.js'))
  project.provide('bundleBuilding', folder === undefined ? hash : '')
  if (folder !== undefined) return undefined
  await rm(BUILD_FAILURE, { force: true })
  const building = build()
  return () => building
}
