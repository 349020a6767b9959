// The order test files start in. While the end-to-end bundle is being built (test/e2e/support/bundle-setup.ts), an
// end-to-end file can only wait for it, holding a worker: the unit and repository files go first then, and run
// during the build. Otherwise the order is vitest's own (by project, the longest files first).
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { readyBundle } from '../e2e/support/bundle-setup.ts'

export class BundleAwareSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    if ((await readyBundle()).folder !== undefined) return sorted
    const waits = (file: TestSpecification): boolean => file.project.name === 'e2e'
    return [...sorted.filter((file) => !waits(file)), ...sorted.filter(waits)]
  }
}
