// Which sources a bundle was built from. `scripts/bundle.ts` records it beside every build (in build/, never in the
// bundle itself), so the end-to-end tests can run a bundle that is already the build of these sources (dist/ just
// built by `npm run bundle`, or their own earlier build) instead of building it again.
import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { ROOT } from '../sim/run-action.ts'

/** What a bundle is built from. */
const INPUTS = ['src', 'package.json', 'package-lock.json', 'tsconfig.json', 'scripts/bundle.ts']

async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(path, { withFileTypes: true, recursive: true }).catch(() => undefined)
  if (entries === undefined) return [path]
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

/** A hash of every input's path and content. */
export async function sourceHash(): Promise<string> {
  const hash = createHash('sha256')
  const files = (await Promise.all(INPUTS.map((input) => filesUnder(join(ROOT, input))))).flat().sort()
  for (const file of files)
    hash
      .update(relative(ROOT, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0')
  return hash.digest('hex')
}

function stampOf(folder: string): string {
  return join(ROOT, 'build', 'bundle-stamps', `${relative(ROOT, folder).replaceAll(/[\\/]/g, '+')}.sha256`)
}

/** Before a build: the folder is no longer the build of anything. */
export async function forgetBuild(folder: string): Promise<void> {
  await rm(stampOf(folder), { force: true })
}

/** After a build that succeeded: the folder is the build of `hash`. */
export async function recordBuild(folder: string, hash: string): Promise<void> {
  await mkdir(dirname(stampOf(folder)), { recursive: true })
  await writeFile(stampOf(folder), hash)
}

export async function isBuildOf(folder: string, hash: string): Promise<boolean> {
  return (await readFile(stampOf(folder), 'utf8').catch(() => '')) === hash
}
