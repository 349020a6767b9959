import { describe, expect, it } from 'vitest'
import { keepsCheck } from '../../../src/decide/command.ts'
import type { Decision } from '../../../src/decide/decision.ts'
import type { RequestRead } from '../../../src/github/requests.ts'

const asked: RequestRead = {
  kind: 'request',
  request: { by: 'mona', command: { kind: 'ask', text: 'Document it', fresh: false }, number: 7, comment: undefined }
}
const job = { kind: 'job', jobId: 'job-1' } as Decision
const refused: Decision = { kind: 'skipped', reason: 'may not ask', asked: { by: 'mona', taken: 'refused' } }
const status: Decision = { kind: 'skipped', reason: 'status', asked: { by: 'mona', taken: 'status-replied' } }
const capped: Decision = { kind: 'rate-limited', reason: 'max-jobs-per-hour (1) is reached' }

describe('keepsCheck', () => {
  it.each([
    ['a run that is no request, whatever it decided', undefined, refused, true],
    ['a request that sent a prompt', asked, job, true],
    ["a request refused: it must not stand in for the pull request's check", asked, refused, false],
    ['a status reply', asked, status, false],
    ['a request the cap stopped', asked, capped, false],
    ['a comment that asks nothing', { kind: 'ignored', reason: 'no command' } as const, refused, false]
  ])('%s: %s', (_what, read, decision, kept) => {
    expect(keepsCheck(read, decision)).toBe(kept)
  })
})
