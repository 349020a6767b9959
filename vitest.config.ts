import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { BundleAwareSequencer } from './test/support/sequencer.ts'

/**
 * Two workers per core: an end-to-end file spends most of its time waiting on its bundle processes and servers, and a
 * file of few tests (the demo, local-action, a mode's few long stories) would leave a core idle while it runs.
 */
const WORKERS = availableParallelism() * 2
/**
 * End-to-end tests run side by side in one worker, each with its bundle process: most of their time is spent waiting
 * (on loopback servers, on Octokit spacing GitHub writes a second apart), so five to a worker keep the cores busy (on
 * 2 cores, up to 20 bundle processes at once). No test depends on another's speed: each waits on what happened, never
 * on a guess of how long it takes.
 */
const E2E_TESTS_PER_WORKER = 5
/**
 * When a test is taken for hung. A safety net only, never what decides a test: every test waits on what happened (a
 * request arrived, a line was logged, the process exited), so a busy machine makes a test slower, never red. Far
 * above the slowest test on a machine with every core busy.
 */
const HUNG_MS = 600_000

export default defineConfig({
  test: {
    reporters: ['default', './test/support/tally-reporter.ts'],
    sequence: { sequencer: BundleAwareSequencer },
    maxWorkers: WORKERS,
    projects: [
      // The decisions, module by module: no process, no network, no real time. They share state with nothing, so the
      // files share their workers' module cache instead of loading every module again for each file.
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false, testTimeout: HUNG_MS } },
      // The repository itself: docs, workflows, dependencies, the release script.
      { test: { name: 'repo', include: ['test/repo/**/*.test.ts'], testTimeout: HUNG_MS } },
      // The bundle run as the runner runs it, against loopback servers. Each test starts its own servers and its own
      // process, and most of their time is spent waiting, so tests run side by side. The files change nothing in the
      // process they run in, so they share their workers' module cache.
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/support/bundle-setup.ts'],
          setupFiles: ['test/e2e/support/bundle-ready.ts'],
          sequence: { concurrent: true },
          isolate: false,
          maxConcurrency: E2E_TESTS_PER_WORKER,
          testTimeout: HUNG_MS,
          hookTimeout: HUNG_MS
        }
      }
    ]
  }
})
