// What an event that asks nothing means to a step that answers requests: skipped at once, with one warning only on an
// event of an issue or a pull request, where the step was likely meant to act too.
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../../sim/settings.ts'
import { asksNothing, type HandledRequest, keepsCheck, unasked } from '../../../../src/modes/requests/requests.ts'
import type { Decision } from '../../../../src/decide/decision.ts'
import { readRequest, type RequestRead } from '../../../../src/github/desk.ts'
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
