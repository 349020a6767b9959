// Runs the bundle of the src/ under test as the runner runs the action, and the one runner every end-to-end file makes
// its runs with: the file's own inputs and options first, then the admin API's address, then each run's own.
import { inject } from 'vitest'
import { isLoopbackHost } from '../../../src/inputs/api.ts'
import { type ActionRun as TimedRun, runAction as runEntry, type RunOptions } from '../../../sim/run-action.ts'

export type { RunOptions } from '../../../sim/run-action.ts'

/**
 * How a run ended, as the runner sees it. Without how long it took: an end-to-end test asserts outcomes, never a
 * wall-clock duration, which a busy machine stretches (schedules are proven in the unit tests, on a simulated clock).
 */
export type ActionRun = Omit<TimedRun, 'durationMs'>

/**
 * Runs the bundle of the src/ under test as the runner runs the action. `grounding` is off unless a test sets it: the
 * check reads the docs pull request and the code from GitHub, which grounding.e2e.test.ts simulates whole.
 */
export async function runAction(options: RunOptions): Promise<ActionRun> {
  const inputs = { grounding: 'off', ...options.inputs }
  const { durationMs: _untold, ...run } = await runEntry({ entry: inject('bundleEntry'), ...options, inputs })
  return run
}

export interface BundleRun extends Partial<RunOptions> {
  /** The simulated GitHub the run talks to: GITHUB_API_URL. */
  readonly github?: { readonly url: string }
}

/** Against a remote host (one only a proxy reaches) the action polls no more often than once a second. */
const REMOTE_INTERVALS = { 'poll-interval': '1s', 'max-poll-interval': '1s' }

/**
 * The run function of one test file: each run sends `defaults` (its inputs, event, token, environment), then the
 * admin API's address as base-url (none: action.yml's default), then its own inputs and options.
 */
export function bundleRunner(defaults: BundleRun) {
  return (
    api: { readonly url: string } | undefined,
    inputs: Record<string, string> = {},
    options: BundleRun = {}
  ): Promise<ActionRun> => {
    const github = options.github ?? defaults.github
    const remote = api !== undefined && !isLoopbackHost(new URL(api.url).hostname)
    return runAction({
      ...defaults,
      ...options,
      env: { ...(github ? { GITHUB_API_URL: github.url } : {}), ...defaults.env, ...options.env },
      inputs: {
        ...defaults.inputs,
        ...(remote ? REMOTE_INTERVALS : {}),
        ...(api ? { 'base-url': api.url } : {}),
        ...inputs
      }
    })
  }
}
