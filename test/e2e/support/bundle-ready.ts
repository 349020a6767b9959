// A setup file of the end-to-end files: before a file's first test, wait for the bundle that the global setup
// (bundle-setup.ts) builds while the unit tests run.
import { readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { beforeAll, inject } from 'vitest'
import { isBuildOf } from '../../../scripts/bundle-stamp.ts'
import { BUILD_FAILURE, TEST_BUNDLE } from './bundle-setup.ts'

/** The build takes about 15 s alone, longer beside the unit tests on a busy machine. */
const BUILD_WAIT_MS = 180_000

async function bundleBuilt(hash: string): Promise<void> {
  for (;;) {
    if (await isBuildOf(TEST_BUNDLE, hash)) return
    const failure = await readFile(BUILD_FAILURE, 'utf8').catch(() => undefined)
    if (failure !== undefined) throw new Error(`The bundle of src/ for the end-to-end tests did not build:\n${failure}`)
    await sleep(100)
  }
}

beforeAll(async () => {
  const building = inject('bundleBuilding')
  if (building) await bundleBuilt(building)
}, BUILD_WAIT_MS)
