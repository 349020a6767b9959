import { expect } from 'vitest'
import type { ActionRun } from '../../sim/run-action.ts'

/** The key may appear only in the runner's `::add-mask::` command, which the runner consumes and never shows. */
export function expectKeyNeverShown(run: ActionRun, key: string): void {
  const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.includes(key))
  expect(lines).toEqual([`::add-mask::${key}`])
  expect(run.summary).not.toContain(key)
  expect(JSON.stringify(run.outputs)).not.toContain(key)
}

/** The `::error::` annotations the runner would show. */
export function errorAnnotations(run: ActionRun): string[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith('::error::'))
    .map((line) => decodeURIComponent(line.slice('::error::'.length).replace(/%(?![0-9A-F]{2})/g, '%25')))
}

export function warningAnnotations(run: ActionRun): string[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.startsWith('::warning::'))
    .map((line) => decodeURIComponent(line.slice('::warning::'.length)))
}
