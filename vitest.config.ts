import { defineConfig } from 'vitest/config'
import { BundleAwareSequencer } from './test/support/sequencer.ts'

export default defineConfig({
  test: {
    reporters: ['default', './test/support/tally-reporter.ts'],
    sequence: { sequencer: BundleAwareSequencer },
    // The end-to-end files spend most of their time waiting on timers and child processes, not on the CPU.
    maxWorkers: 3,
    projects: [
      // The decisions, module by module: no process, no network, no real time.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      // The repository itself: docs, workflows, dependencies, the release script.
      { test: { name: 'repo', include: ['test/repo/**/*.test.ts'], testTimeout: 30_000 } },
      // The bundle run as the runner runs it, against loopback servers. Each test starts its own servers and its own
      // process, and most of their time is spent waiting, so tests run side by side.
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/support/bundle-setup.ts'],
          setupFiles: ['test/e2e/support/bundle-ready.ts'],
          sequence: { concurrent: true },
          maxConcurrency: 8,
          testTimeout: 30_000,
          hookTimeout: 30_000
        }
      }
    ]
  }
})
