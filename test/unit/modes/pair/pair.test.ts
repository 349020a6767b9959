// mode: pair against a fake setup: what each event of the code pull request sends to the agent or does to its docs
// pull request, and what the record on the code pull request says after.
import { describe, expect, it } from 'vitest'
import type { Decision } from '../../../../src/decide/decision.ts'
import type { EventChange } from '../../../../src/github/change.ts'
import type { TrackingState } from '../../../../src/github/tracking-record.ts'
import { closeSuperseded, type Paired } from '../../../../src/modes/pair/docs-pull.ts'
import { decidePair } from '../../../../src/modes/pair/pair.ts'
import type { WaitResult } from '../../../../src/wait/job-wait.ts'
import { fakeSetup, type World } from '../../support/fake-setup.ts'
import {
  DOCS_PR,
  HEAD,
  jobRead,
  pullEvent,
  pushEvent,
  reasonOf,
  refused,
  submission,
  trackedJob
} from '../../support/world.ts'

const PAIR = { mode: 'pair' }
const OLD_HEAD = 'a'.repeat(40)

/** What `mode: pair` decides in this world, once the comment's writes have landed. */
async function pair(world: World & { readonly change: EventChange }) {
  const faked = fakeSetup({ ...world, inputs: { ...PAIR, ...world.inputs } })
  const decision = await decidePair(faked.setup)
  await decision.comment?.settle()
  const apiCalls = faked.calls.filter((call) => call.startsWith('api '))
  return { ...faked, decision, apiCalls, record: faked.writes.at(-1)?.state }
}

/** The code pull request's record: job-1, whose last prompt described `head`, and its docs pull request. */
function recorded(head = OLD_HEAD, more: Partial<TrackingState> = {}) {
  return [trackedJob('job-1', { requests: [submission({ head })], pr: DOCS_PR, ...more })]
}

/** What changed since the recorded head, as the compare tells it. */
function since(compareStatus: string): EventChange {
  const facts = {
    kind: 'pull-request-update',
    repository: 'acme/widgets',
    number: 128,
    title: 'Add a retry option',
    url: 'https://github.com/acme/widgets/pull/128',
    before: OLD_HEAD,
    after: HEAD
  } as const
  const commits = [{ sha: HEAD, message: 'Retry on 503 too', author: 'octocat' }]
  return { facts, fetched: { compareStatus, commits }, calls: 1 }
}

describe('decidePair', () => {
  it('pairs nothing on a push, and says which events it runs on', async () => {
    const { decision, apiCalls } = await pair({ change: pushEvent() })
    expect(decision.kind).toBe('error')
    expect(reasonOf(decision)).toMatch(
      /^mode: pair keeps a docs pull request in step with a code pull request, .*\(a push\)/
    )
    expect(apiCalls).toEqual([])
  })

  it.each([
    ['a label added', pullEvent('labeled'), 'a "labeled" event of pull request #128 changes nothing the docs describe'],
    [
      'a draft opened',
      pullEvent('opened', { draft: true }),
      'pull request #128 is a draft: its docs wait until it is ready for review (or set pair-drafts: true)'
    ]
  ])('sends nothing for %s, naming why', async (_, change, reason) => {
    const { decision, calls } = await pair({ change })
    expect(decision).toEqual({ kind: 'skipped', reason })
    expect(calls).toEqual(['github read change'])
  })

  it('sends nothing for a docs pull request of its own jobs (loop prevention)', async () => {
    const { decision, apiCalls } = await pair({ change: pullEvent('opened'), docsRecord: { kind: 'own' } })
    expect(reasonOf(decision)).toBe(
      'pull request #128 is a docs pull request a job of this action opened (loop prevention)'
    )
    expect(apiCalls).toEqual([])
  })

  it('starts a job for a pull request opened, recording the head its prompt describes', async () => {
    const { decision, apiCalls, writes } = await pair({ change: pullEvent('opened') })
    expect(decision).toMatchObject({ kind: 'job', submission: { kind: 'start', head: HEAD } })
    expect(apiCalls).toEqual(['api create'])
    expect(writes[0]?.state.requests).toMatchObject([{ head: HEAD, unsure: true }])
  })

  it('sends nothing when the recorded head is the head now', async () => {
    const { decision, apiCalls } = await pair({ change: pullEvent('synchronize'), tracked: recorded(HEAD) })
    expect(reasonOf(decision)).toBe('nothing is new in pull request #128 since the last prompt (head bbbbbbb)')
    expect(apiCalls).toEqual([])
  })

  it('follows up with only the commits since the recorded head', async () => {
    const world = { change: pullEvent('synchronize'), tracked: recorded(), since: since('ahead') }
    const { decision, apiCalls, sent } = await pair(world)
    expect(decision).toMatchObject({ kind: 'job', jobId: 'job-1', submission: { kind: 'follow-up', head: HEAD } })
    expect(apiCalls).toEqual(['api follow-up job-1'])
    expect(sent[0]).toContain('its new commits since the last prompt')
  })

  it("sends nothing when a newer head than this run's is described already", async () => {
    const world = { change: pullEvent('synchronize'), tracked: recorded(), since: since('behind') }
    const { decision, apiCalls } = await pair(world)
    expect(reasonOf(decision)).toBe("a newer head of pull request #128 than this run's (bbbbbbb) is already described")
    expect(apiCalls).toEqual([])
  })

  it('describes the whole pull request again after a force-push', async () => {
    const world = { change: pullEvent('synchronize'), tracked: recorded(), since: since('diverged') }
    const { apiCalls, sent, log } = await pair(world)
    expect(apiCalls).toEqual(['api follow-up job-1'])
    expect(sent[0]).not.toContain('its new commits since the last prompt')
    expect(log.info.join('\n')).toContain("no longer in pull request #128's history (a force-push)")
  })

  it('starts a job that supersedes the docs pull request when the job takes no follow-up', async () => {
    const world = { change: pullEvent('synchronize'), tracked: recorded(), api: { followUp: [refused(400)] } }
    const { decision, apiCalls, sent } = await pair(world)
    expect(apiCalls).toEqual(['api follow-up job-1', 'api create'])
    expect(decision).toMatchObject({ kind: 'job', submission: { kind: 'start' }, extra: { supersedes: DOCS_PR } })
    expect(sent[1]).toContain(`This job supersedes the docs pull request ${DOCS_PR}`)
  })
})

describe('decidePair, once the code pull request ends', () => {
  it('tells the docs pull request of a merge, with merged-label, and records it', async () => {
    const world = { inputs: { 'merged-label': 'code merged' }, change: pullEvent('closed', { merged: true }) }
    const { decision, calls, said, record, apiCalls } = await pair({ ...world, tracked: recorded() })
    expect(calls).toContain('github comment #7')
    expect(calls).toContain('github label #7 code merged')
    expect(said).toEqual([
      'The code pull request https://github.com/acme/widgets/pull/128, which this docs pull request documents, was merged.'
    ])
    expect(decision).toMatchObject({ kind: 'skipped', extra: { told: 'merged' } })
    expect(record?.source).toBe('merged')
    expect(apiCalls).toEqual([])
  })

  it('closes the docs pull request of a pull request closed unmerged, saying why, and records it', async () => {
    const { decision, calls, record } = await pair({ change: pullEvent('closed'), tracked: recorded() })
    expect(calls.filter((call) => call.endsWith('#7'))).toEqual(['github close #7', 'github comment #7'])
    expect(decision).toMatchObject({ kind: 'skipped', extra: { told: 'closed' } })
    expect(record?.source).toBe('closed')
  })

  it.each([
    ['closed', 'was-closed'],
    ['merged', 'merged']
  ] as const)(
    'leaves a docs pull request %s already as it is, and records that it found it so',
    async (already, value) => {
      const world = {
        change: pullEvent('closed'),
        tracked: recorded(),
        pulls: { close: { kind: 'done', value } }
      } as const
      const { decision, said, record } = await pair(world)
      expect(said).toEqual([])
      expect(reasonOf(decision)).toBe(
        `pull request #128 was closed: its docs pull request ${DOCS_PR} was ${already} already, and is left as it is`
      )
      expect(record?.source).toBe('found-closed')
    }
  )

  it('reopens the docs pull request with its code pull request, then follows its job up', async () => {
    const { calls, apiCalls, record } = await pair({
      change: pullEvent('reopened'),
      tracked: recorded(OLD_HEAD, { source: 'closed' })
    })
    expect(calls.filter((call) => call.endsWith('#7'))).toEqual(['github reopen #7', 'github comment #7'])
    expect(apiCalls).toEqual(['api follow-up job-1'])
    expect(record?.source).toBeUndefined()
  })

  it('starts anew when GitHub will not reopen the docs pull request', async () => {
    const tracked = recorded(OLD_HEAD, { source: 'closed' })
    const world = {
      change: pullEvent('reopened'),
      tracked,
      pulls: { reopen: { kind: 'done', value: 'refused' } }
    } as const
    const { apiCalls, log } = await pair(world)
    expect(apiCalls).toEqual(['api create'])
    expect(log.warning).toEqual([
      `GitHub would not reopen ${DOCS_PR} (its branch is gone): a new job is started for the whole of pull request #128.`
    ])
  })
})

describe('closeSuperseded', () => {
  const decision: Decision<Paired> & { kind: 'job' } = {
    kind: 'job',
    jobId: 'job-2',
    job: undefined,
    submission: undefined,
    followedUp: false,
    sent: true,
    comment: undefined,
    extra: { supersedes: DOCS_PR }
  }
  const ended = (status: string, prLink: string | null): WaitResult => {
    const read = jobRead('job-2', status, prLink)
    const job = read.kind === 'job' ? read.job : undefined
    return { kind: status, polls: 3, faults: 0, elapsedMs: 1000, job } as WaitResult
  }

  it.each([
    [
      'completed with its own pull request: the earlier one is told and closed',
      ended('completed', 'https://github.com/acme/docs/pull/9'),
      ['github comment #7', 'github close #7']
    ],
    ['failed: the earlier one stays', ended('failed', null), []],
    ['completed with the earlier pull request itself: it stays', ended('completed', DOCS_PR), []]
  ])('%s', async (_, result, calls) => {
    const faked = fakeSetup({ inputs: PAIR })
    await closeSuperseded(faked.setup, decision, result)
    expect(faked.calls).toEqual(calls)
  })
})
