// What an event that asks nothing means to a step that answers requests: skipped at once, with one warning only on an
// event of an issue or a pull request, where the step was likely meant to act too.
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../../sim/settings.ts'
import {
  answerRequest,
  asksNothing,
  decideRequest,
  type HandledRequest,
  keepsCheck,
  unasked,
  unaskedOf
} from '../../../../src/modes/requests/requests.ts'
import type { Decision, StepSetup } from '../../../../src/decide/decision.ts'
import { type Command, readRequest, type RequestRead } from '../../../../src/github/desk.ts'
import type { Role } from '../../../../src/inputs/mode-settings.ts'
import type { WaitResult } from '../../../../src/wait/job-wait.ts'
import { fakeSetup, type World } from '../../support/fake-setup.ts'
import { DOCS_PR, jobRead, reasonOf, refused as apiRefusal, trackedJob } from '../../support/world.ts'
import { mergedPullRequest, pushToMain } from '../../support/event-payloads.ts'

const COMMAND = { command: '/docs' }
const LABEL = { label: 'docs', prompt: 'Document what this asks.' }
const issue = { number: 4, title: 'Explain rate limits', user: { login: 'mona' } }
const comment = (body: string) => ({ action: 'created', issue, comment: { id: 9, body, user: { login: 'mona' } } })
const labelled = (action: string) => ({ action, issue, label: { name: 'docs' }, sender: { login: 'mona' } })

/** What the step does with the event: `asked` (it reads the request), `quiet` (skipped) or `warned` (skipped, warned). */
function outcome(inputs: Record<string, string>, eventName: string, payload: unknown) {
  const settings = settingsOf(inputs)
  const read = readRequest(eventName, payload, settings.requests)
  if (!asksNothing(settings, read)) return { kind: 'asked' }
  const warnings: string[] = []
  const log = { info: () => undefined, debug: () => undefined, warning: (line: string) => warnings.push(line) }
  const action = (payload as { action?: string }).action
  const decision = unasked(settings.requests, { name: eventName, action }, log)
  return { kind: warnings.length > 0 ? 'warned' : 'quiet', reason: decision.reason, warnings }
}

describe('an event that asks nothing of a step that answers requests', () => {
  it.each([
    ['a comment, with command', COMMAND, 'issue_comment', comment('/docs update it'), 'asked'],
    ['a comment without the command, with command', COMMAND, 'issue_comment', comment('Looks good'), 'asked'],
    ['a label added, with label', LABEL, 'issues', labelled('labeled'), 'asked'],
    ['a push, with command', COMMAND, 'push', pushToMain(), 'quiet'],
    ['a release, with label', LABEL, 'release', { action: 'published', release: { tag_name: 'v1' } }, 'quiet'],
    ['a schedule, with command', COMMAND, 'schedule', { schedule: '0 9 * * 1' }, 'quiet'],
    ['a dispatch, with label', LABEL, 'workflow_dispatch', { inputs: {} }, 'quiet'],
    ['a merged pull request, with command', COMMAND, 'pull_request', mergedPullRequest(), 'warned'],
    ['a merged pull request, with label', LABEL, 'pull_request', mergedPullRequest(), 'warned'],
    ['an issue opened, with label', LABEL, 'issues', labelled('opened'), 'warned'],
    ['the label taken off, with label', LABEL, 'issues', labelled('unlabeled'), 'warned'],
    ['a comment, with label only', LABEL, 'issue_comment', comment('/docs update it'), 'warned'],
    ['a review submitted, with command', COMMAND, 'pull_request_review', { action: 'submitted' }, 'warned']
  ])('%s: %s', (_, inputs, eventName, payload, expected) => {
    expect(outcome(inputs, eventName, payload).kind).toBe(expected)
  })

  it('takes no part in mode: pair, whose pull request events keep its docs pull request in step', () => {
    const settings = settingsOf({ ...COMMAND, mode: 'pair' })
    expect(asksNothing(settings, readRequest('pull_request', mergedPullRequest(), settings.requests))).toBe(false)
  })

  it('says what asks in the inputs, as the skip-reason and the one warning', () => {
    expect(outcome(COMMAND, 'push', pushToMain())).toEqual({
      kind: 'quiet',
      reason: 'no request: only a comment that starts with /docs asks',
      warnings: []
    })
    const both = outcome({ ...COMMAND, ...LABEL }, 'pull_request', mergedPullRequest())
    expect(both.reason).toBe('no request: only adding the label "docs" or a comment that starts with /docs asks')
    expect(both.warnings).toEqual([
      'This step has "command" and "label", so it acts only when asked, and only adding the label "docs" or a comment that starts with /docs asks: nothing is sent for this "pull_request" event (closed). To act on such events too, run a step of its own for them, without "command" or "label".'
    ])
  })
})

const asked: RequestRead = {
  kind: 'request',
  request: { by: 'mona', command: { kind: 'ask', text: 'Document it', fresh: false }, number: 7, comment: undefined }
}
const job = { kind: 'job', jobId: 'job-1' } as Decision
const refused: Decision<HandledRequest> = {
  kind: 'skipped',
  reason: 'may not ask',
  extra: { by: 'mona', taken: 'refused' }
}
const status: Decision<HandledRequest> = {
  kind: 'skipped',
  reason: 'status',
  extra: { by: 'mona', taken: 'status-replied' }
}
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

const ASKING = { command: '/docs', label: 'docs' }

/** A request from mona on issue #12: a comment (id 9) that asks `command`, or the label added. */
function askedBy(command: Command, by = 'mona'): RequestRead {
  const comment = command.kind === 'label' ? undefined : { id: 9, review: false }
  return { kind: 'request', request: { by, command, number: 12, comment } }
}

const ASK: Command = { kind: 'ask', text: 'Update the auth page', fresh: false }

/** What the step decides with this request in this world, once the comment's writes have landed. */
async function request(read: RequestRead, world: World = {}) {
  const faked = fakeSetup({ ...world, inputs: { ...ASKING, ...world.inputs }, desk: { read, role: world.desk?.role } })
  const decision = await decideRequest(faked.setup, faked.setup.desk as NonNullable<StepSetup['desk']>, read)
  await decision.comment?.settle()
  const apiCalls = faked.calls.filter((call) => call.startsWith('api '))
  return { ...faked, decision, apiCalls }
}

const withRole = (role: Role | Error): World => ({ desk: { read: askedBy(ASK), role } })

describe('decideRequest', () => {
  it('answers a comment that asks nothing with nothing at all', async () => {
    const { decision, calls } = await request({ kind: 'ignored', reason: 'no command' })
    expect(decision).toEqual({ kind: 'skipped', reason: 'no command' })
    expect(calls).toEqual([])
  })

  it("skips the token's own comment, asking nothing more", async () => {
    const { decision, calls } = await request(askedBy(ASK), { login: 'mona' })
    expect(reasonOf(decision)).toBe("the token's own comment")
    expect(calls).toEqual(['github login'])
  })

  it('sends nothing when the role cannot be read, and reacts confused', async () => {
    const { decision, calls } = await request(askedBy(ASK), withRole(new Error('HTTP 502')))
    expect(decision).toMatchObject({ kind: 'error', extra: { by: 'mona', taken: 'none' } })
    expect(reasonOf(decision)).toBe(
      'Could not read whether "mona" may ask (their permission on the repository: HTTP 502). Nothing was sent; run the step again.'
    )
    expect(calls).toEqual(['github login', 'github role mona', 'github react confused'])
  })

  it('refuses a person with too little access, saying which they have', async () => {
    const { decision, calls, said } = await request(askedBy(ASK), withRole('read'))
    expect(decision).toMatchObject({ kind: 'skipped', extra: { by: 'mona', taken: 'refused' } })
    expect(said).toEqual([
      'Only people with `write` access to this repository or more can ask for docs with `/docs`; `mona` has `read`. Nothing was sent to the agent.'
    ])
    expect(calls.slice(-2)).toEqual(['github reply', 'github react confused'])
  })

  it('replies how to ask to the command alone', async () => {
    const { decision, said, apiCalls } = await request(askedBy({ kind: 'usage' }))
    expect(decision).toMatchObject({ kind: 'skipped', extra: { taken: 'usage-replied' } })
    expect(said[0]).toMatch(/^Ask with `\/docs <instructions>`/)
    expect(apiCalls).toEqual([])
  })

  it('replies that no job is recorded to a status with none', async () => {
    const { decision, said } = await request(askedBy({ kind: 'status' }), { tracked: [] })
    expect(decision).toMatchObject({ kind: 'skipped', extra: { taken: 'status-replied' } })
    expect(said[0]).toMatch(/^No agent job is recorded here yet\./)
  })

  it("shows the recorded job's end in its comment on a status, sending nothing", async () => {
    const world = { tracked: [trackedJob('job-1')], api: { jobs: { 'job-1': jobRead('job-1', 'completed', DOCS_PR) } } }
    const { decision, apiCalls, writes } = await request(askedBy({ kind: 'status' }), world)
    expect(decision).toMatchObject({ kind: 'skipped', jobId: 'job-1', job: { status: 'completed' } })
    expect(reasonOf(decision)).toBe('status: agent job "job-1" is completed')
    expect(writes.at(-1)).toMatchObject({ commentId: 5, state: { ended: 'completed', pr: DOCS_PR } })
    expect(apiCalls).toEqual(['api get job-1'])
  })

  it('follows up the recorded job with their words, eyes first', async () => {
    const { decision, calls, sent } = await request(askedBy(ASK), { tracked: [trackedJob('job-1')] })
    expect(decision).toMatchObject({ kind: 'job', jobId: 'job-1', extra: { by: 'mona', taken: 'commanded' } })
    expect(calls.indexOf('github react eyes')).toBeLessThan(calls.indexOf('api follow-up job-1'))
    expect(sent).toEqual(['Update the auth page'])
  })

  it('starts a new job with new, whatever is recorded', async () => {
    const { apiCalls } = await request(askedBy({ ...ASK, fresh: true }), { tracked: [trackedJob('job-1')] })
    expect(apiCalls).toEqual(['api create'])
  })

  it('sends the prompt input for the label, and takes the label off again', async () => {
    const { decision, calls, sent } = await request(askedBy({ kind: 'label' }))
    expect(decision).toMatchObject({ kind: 'job', extra: { prompt: 'Document the change' } })
    expect(sent).toEqual(['Document the change'])
    expect(calls).toContain('github remove label docs')
  })

  it.each([
    ['the cap is reached', { inputs: { 'max-jobs-per-hour': '1' }, startsThisHour: 1 }, 'rate-limited'],
    ['the API refuses', { api: { create: [apiRefusal(400)] } }, 'error']
  ] as const)('reacts confused when %s, naming who asked', async (_, world, kind) => {
    const { decision, calls } = await request(askedBy(ASK), world)
    expect(decision).toMatchObject({ kind, extra: { by: 'mona', taken: 'commanded' } })
    expect(calls.at(-1)).toBe('github react confused')
  })
})

describe('answerRequest', () => {
  const ended = (kind: string, prLink: string | null): WaitResult => {
    const read = jobRead('job-1', kind, prLink)
    return { kind, polls: 2, faults: 0, elapsedMs: 1000, job: read.kind === 'job' ? read.job : undefined } as WaitResult
  }
  it.each([
    [
      'a job that completed with a pull request: rocket',
      'commanded',
      ended('completed', DOCS_PR),
      ['github react rocket']
    ],
    ['a job that failed: confused', 'commanded', ended('failed', null), ['github react confused']],
    ['a request that sent nothing: no reaction', 'status-replied', ended('completed', DOCS_PR), []]
  ] as const)('%s', async (_, taken, result, calls) => {
    const faked = fakeSetup({ inputs: ASKING, desk: { read: askedBy(ASK) } })
    const decision = { ...job, extra: { by: 'mona', taken } }
    await answerRequest(faked.setup, decision, result)
    expect(faked.calls).toEqual(calls)
  })
})

describe('unaskedOf', () => {
  it.each([
    [{ command: '/docs' }, 'no request: only a comment that starts with /docs asks'],
    [{ label: 'docs', prompt: 'Document it' }, 'no request: only adding the label "docs" asks']
  ])('skips a push with %j, asking GitHub nothing', (inputs, reason) => {
    const faked = fakeSetup({ inputs })
    expect(unaskedOf(faked.setup, { name: 'push', action: undefined })).toEqual({ kind: 'skipped', reason })
    expect(faked.calls).toEqual([])
  })
})
