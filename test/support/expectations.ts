import { expect } from 'vitest'
import type { ActionRun } from '../e2e/support/run-bundle.ts'
import { decodeCommandData } from '../../sim/runner-log.ts'

/** The key may appear only in the runner's `::add-mask::` command, which the runner consumes and never shows. */
export function expectKeyNeverShown(run: ActionRun, key: string): void {
  const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.includes(key))
  expect(lines).toEqual([`::add-mask::${key}`])
  expect(run.summary).not.toContain(key)
  expect(JSON.stringify(run.outputs)).not.toContain(key)
}

function annotations(run: ActionRun, kind: 'error' | 'warning'): string[] {
  const prefix = `::${kind}::`
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => decodeCommandData(line.slice(prefix.length)))
}

/** The `::error::` annotations the runner would show. */
export function errorAnnotations(run: ActionRun): string[] {
  return annotations(run, 'error')
}

export function warningAnnotations(run: ActionRun): string[] {
  return annotations(run, 'warning')
}
