// With docs-paths: the agent's pull request held to the files it may touch, renames counted where they came from.
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import { checkPrLink } from '../../../src/admin-api/agent-job.ts'
import { checkGuardrail } from '../../../src/after-job/guardrail.ts'
import type { StepSetup } from '../../../src/decide/decision.ts'
import type { ChangedFile } from '../../../src/github/change.ts'
import type { PullOperations } from '../../../src/github/pulls.ts'
import type { WaitResult } from '../../../src/wait/job-wait.ts'
import { changedFile } from '../support/event-payloads.ts'

const file = changedFile

describe('checkGuardrail', () => {
  const pr = checkPrLink('https://github.com/acme/docs/pull/128', new Set(['github.com']), (text) => text)
  const result = { kind: 'completed', job: { pr } } as unknown as WaitResult

  /** The verdict of docs-paths `docs/**` on a docs pull request with these files. */
  function check(files: ChangedFile[]) {
    const pulls = { files: () => Promise.resolve({ kind: 'done', value: { files, complete: true } }) }
    const log = { info: () => undefined, warning: () => undefined }
    const setup = { settings: settingsOf({ 'docs-paths': 'docs/**' }), pulls: pulls as unknown as PullOperations, log }
    return checkGuardrail(setup as unknown as StepSetup, result)
  }
  const renamed = (previousPath: string, path: string): ChangedFile => file(path, previousPath)

  it.each([
    ['files in the docs', [file('docs/a.mdx'), renamed('docs/old.mdx', 'docs/new.mdx')], { kind: 'passed' }],
    ['a file outside them', [file('docs/a.mdx'), file('src/a.ts')], { kind: 'violated', files: ['src/a.ts'] }],
    [
      'a file moved into the docs from outside: where it came from counts',
      [renamed('src/billing.ts', 'docs/billing.ts'), renamed('.github/workflows/ci.yml', 'docs/ci.yml')],
      { kind: 'violated', files: ['src/billing.ts', '.github/workflows/ci.yml'] }
    ],
    ['a file moved out of the docs', [renamed('docs/a.mdx', 'src/a.mdx')], { kind: 'violated', files: ['src/a.mdx'] }]
  ])('%s', async (_what, files, verdict) => {
    expect(await check(files)).toEqual(verdict)
  })
})
