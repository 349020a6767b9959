import type { Reporter, TestModule } from 'vitest/node'

/** Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI log reader understands. */
export default class TallyReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tally = { passed: 0, failed: 0, skipped: 0, pending: 0 }
    for (const module of testModules) {
      for (const test of module.children.allTests()) tally[test.result().state] += 1
    }
    const failedModules = testModules.filter((module) => module.state() === 'failed').length
    process.stdout.write(`\nTests: ${tally.passed} passed, ${tally.failed + failedModules} failed, ${tally.skipped} skipped\n`)
  }
}
