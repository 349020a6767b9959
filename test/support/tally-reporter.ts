import type { Reporter, TestModule } from 'vitest/node'

/** Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI log reader understands. */
export default class TallyReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tally = { passed: 0, failed: 0, skipped: 0, pending: 0 }
    for (const module of testModules) {
      const failedBefore = tally.failed
      for (const test of module.children.allTests()) tally[test.result().state] += 1
      // A file that failed outside any test (it did not load, or a hook threw) counts as one failure.
      if (module.state() === 'failed' && tally.failed === failedBefore) tally.failed += 1
    }
    process.stdout.write(`\nTests: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped\n`)
  }
}
