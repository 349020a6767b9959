import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import { parseJob } from '../../../src/admin-api/agent-job.ts'
import { type StepResult, verdictOf } from '../../../src/report/verdict.ts'
import type { FailableOutcome } from '../../../src/text/outcome.ts'

function job(status: string, prLink: string | null = null) {
  const parsed = parseJob({ id: 'job-1', status, prLink }, { jobId: 'job-1', githubHosts: new Set(['github.com']) })
  return parsed.kind === 'job' ? parsed.job : undefined
}
const stats = { polls: 4, elapsedMs: 125_000, faults: 0 }
const settings = (failOn: readonly FailableOutcome[], timeout = '30m') =>
  settingsOf({ timeout, 'fail-on': failOn.join(',') })
const verdict = (result: StepResult, failOn: FailableOutcome[] = ['failed', 'timeout']) =>
  verdictOf(result, settings(failOn), 'job-1')

describe('verdictOf', () => {
  it.each([
    [
      { ...stats, kind: 'completed', job: job('completed', 'https://github.com/a/b/pull/1') },
      false,
      'Agent job "job-1" completed after 2m 5s (4 polls): the agent opened https://github.com/a/b/pull/1.'
    ],
    [
      { ...stats, kind: 'completed', job: job('completed') },
      false,
      'Agent job "job-1" completed after 2m 5s (4 polls): the agent opened no pull request (it changed nothing, or published directly, as the project\'s agent settings decide).'
    ],
    [
      { ...stats, kind: 'failed', job: job('failed') },
      true,
      'Agent job "job-1" failed after 2m 5s (4 polls): the agent hit an unrecoverable error. Open the job on the Mintlify dashboard to see why.'
    ],
    [
      { ...stats, kind: 'archived', job: job('archived') },
      false,
      'Agent job "job-1" was archived after 2m 5s (4 polls).'
    ],
    [
      {
        ...stats,
        kind: 'timeout',
        job: job('active'),
        lastFault: undefined,
        lastFaultKind: undefined,
        consecutiveFaults: 0
      },
      true,
      'Agent job "job-1" was still active when the timeout of 30m ran out after 2m 5s (4 polls). Raise timeout to wait longer; the job itself goes on.'
    ],
    [
      { ...stats, kind: 'started', job: job('active') },
      false,
      'Agent job "job-1" is active; not waiting for it (wait: false).'
    ],
    [{ ...stats, kind: 'error', job: undefined, reason: 'HTTP 404.' }, true, 'HTTP 404.'],
    [
      { ...stats, kind: 'cancelled', job: job('active') },
      true,
      'Cancelled while waiting for agent job "job-1" after 2m 5s (4 polls); the job itself goes on.'
    ]
  ] as const)('%#: fails %s and says what happened', (result, fails, message) => {
    expect(verdict(result)).toEqual({ fails, message })
  })

  it.each([
    ['completed', ['completed'], true],
    ['archived', ['archived'], true],
    ['failed', [], false],
    ['timeout', [], false]
  ] as const)('fails on %s only when fail-on names it', (kind, failOn, fails) => {
    const result: StepResult =
      kind === 'timeout'
        ? { ...stats, kind, job: job('active'), lastFault: undefined, lastFaultKind: undefined, consecutiveFaults: 0 }
        : { ...stats, kind, job: job(kind) }
    expect(verdict(result, [...failOn]).fails).toBe(fails)
  })

  it.each([
    [
      'network',
      'connection refused (ECONNREFUSED)',
      'Check that base-url is reachable from this runner (and the proxy settings), or raise timeout.'
    ],
    [
      'server',
      'HTTP 503',
      'The API kept failing, and may be having an outage: run the step again later, or raise timeout.'
    ],
    ['rate limited', 'rate limited (HTTP 429)', 'The API kept asking the action to slow down'],
    [
      'not a job',
      'HTTP 200 with a body that is not a job: the body has no "status" string',
      "check that base-url is the Mintlify admin API's root"
    ],
    ['not found', 'HTTP 404', 'never became readable. It may still be running: look for it on the Mintlify dashboard.']
  ] as const)(
    'always fails a timeout in which the job could never be read, with advice for %s faults',
    (kind, fault, advice) => {
      const result: StepResult = {
        ...stats,
        kind: 'timeout',
        job: undefined,
        lastFault: fault,
        lastFaultKind: kind,
        consecutiveFaults: 4
      }
      const { fails, message } = verdict(result, [])
      expect(fails).toBe(true)
      expect(message).toContain(
        `Agent job "job-1" could not be read within the timeout of 30m: ${fault} (4 attempts). `
      )
      expect(message).toContain(advice)
      if (kind !== 'network') expect(message).not.toContain('reachable')
    }
  )

  it('says when the job timed out in a status this action does not know', () => {
    const result: StepResult = {
      ...stats,
      kind: 'timeout',
      job: job('queued'),
      lastFault: undefined,
      lastFaultKind: undefined,
      consecutiveFaults: 0
    }
    expect(verdict(result).message).toBe(
      'Agent job "job-1" was still queued when the timeout of 30m ran out after 2m 5s (4 polls). The API reported a status this action does not know ("queued"), so it kept waiting for completed, archived or failed. Raise timeout to wait longer; the job itself goes on.'
    )
  })
})

describe('the preview in the verdict', () => {
  const completed: StepResult = { ...stats, kind: 'completed', job: job('completed', 'https://github.com/a/b/pull/1') }
  const url = 'https://acme-x.mintlify.app/'
  const failed = { kind: 'failure', url, build: { status: 'failure', summary: '1 broken link', logs: [] } } as const

  it.each([
    [
      { kind: 'success', url, build: { status: 'success', summary: undefined, logs: [] } } as const,
      false,
      `Its preview is built: ${url}.`
    ],
    [failed, true, `Its preview failed to build (1 broken link): ${url}.`],
    [
      { kind: 'building', reason: 'it was still queued when the timeout ran out', url } as const,
      false,
      `Its preview was not built yet: it was still queued when the timeout ran out: ${url}.`
    ],
    [
      { kind: 'unavailable', reason: 'previews are not on the plan' } as const,
      false,
      'No preview: previews are not on the plan.'
    ]
  ])('%#: says what became of the preview, after the job', (preview, fails, sentence) => {
    const verdict = verdictOf(completed, settings(['failed', 'timeout', 'preview-failed']), 'job-1', { preview })
    expect(verdict.fails).toBe(fails)
    expect(verdict.message).toBe(
      `Agent job "job-1" completed after 2m 5s (4 polls): the agent opened https://github.com/a/b/pull/1. ${sentence}`
    )
  })

  it('lets a failed preview pass when fail-on leaves preview-failed out', () => {
    expect(verdictOf(completed, settings(['failed'], '1ms'), 'job-1', { preview: failed }).fails).toBe(false)
  })

  const finding = { name: 'client.users.deleteMany()', path: 'docs/api.mdx', line: 5 }
  it.each([
    [{ kind: 'passed', names: 3 } as const, ['failed', 'ungrounded'], false, ''],
    [{ kind: 'fixed', names: 3 } as const, ['failed', 'ungrounded'], false, ' The agent corrected'],
    [
      { kind: 'unchecked', reason: 'no access' } as const,
      ['failed', 'ungrounded'],
      false,
      ' Its code names were not checked against the code: no access.'
    ],
    [
      { kind: 'ungrounded', names: 3, findings: [finding] } as const,
      ['failed'],
      false,
      ' Its pull request adds 1 code name found nowhere in the code: client.users.deleteMany() (docs/api.mdx:5).'
    ],
    [
      { kind: 'ungrounded', names: 3, findings: [finding] } as const,
      ['failed', 'ungrounded'],
      true,
      ' Its pull request adds 1 code name'
    ]
  ] as const)(
    '%#: grounding %j fails only when fail-on names ungrounded, and says so after the job',
    (grounding, failOn, fails, sentence) => {
      const said = verdictOf(completed, settings([...failOn]), 'job-1', { grounding })
      expect(said.fails).toBe(fails)
      expect(
        said.message.slice(
          'Agent job "job-1" completed after 2m 5s (4 polls): the agent opened https://github.com/a/b/pull/1.'.length
        )
      ).toContain(sentence)
    }
  )
})
