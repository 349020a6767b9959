import { inject } from 'vitest'
import { type ActionRun, runAction as runEntry, type RunOptions } from '../../../sim/run-action.ts'

export type { ActionRun, RunOptions } from '../../../sim/run-action.ts'

/** Runs the bundle of the src/ under test as the runner runs the action. */
export function runAction(options: RunOptions): Promise<ActionRun> {
  return runEntry({ entry: inject('bundleEntry'), ...options })
}
