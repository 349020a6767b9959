// A setup file of the end-to-end files: before a file's first test, wait for the bundle that the global setup
// (bundle-setup.ts) builds while the unit tests run. The wait ends on the build's stamp or its failure; the project's
// hook timeout is only a safety net.
import { readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { beforeAll, inject } from 'vitest'
import { isBuildOf } from '../../../scripts/bundle-stamp.ts'
import { BUILD_FAILURE, TEST_BUNDLE } from './bundle-setup.ts'

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
})
