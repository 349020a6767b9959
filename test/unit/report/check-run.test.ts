import { describe, expect, it } from 'vitest'
import { factsFromEvent } from '../../../src/github/event.ts'
import { checkPlace } from '../../../src/report/check-run.ts'
import { commentOnPullRequest, mergedPullRequest, pushToMain, SHA_AFTER } from '../support/event-payloads.ts'

const RUN_SHA = 'e'.repeat(40)
const facts = (eventName: string, payload: unknown) => factsFromEvent(eventName, payload, 'acme/widgets').facts
const HEAD = 'a'.repeat(40)
const merged = mergedPullRequest() as { pull_request: { head: Record<string, unknown> } }
const opened = { ...merged, pull_request: { ...merged.pull_request, head: { ...merged.pull_request.head, sha: HEAD } } }
const issueComment = { ...commentOnPullRequest(), issue: { number: 5, title: 'Docs are stale' } }

describe('checkPlace', () => {
  it.each([
    ["a pull request's event: its head", facts('pull_request', opened), { kind: 'commit', sha: HEAD }],
    ['a push: its last commit', facts('push', pushToMain()), { kind: 'commit', sha: SHA_AFTER }],
    [
      "a comment in a pull request's conversation: that pull request's head, which its event does not name",
      facts('issue_comment', commentOnPullRequest()),
      { kind: 'pull request', number: 77 }
    ],
    [
      "a comment on an issue: the run's own commit",
      facts('issue_comment', issueComment),
      { kind: 'commit', sha: RUN_SHA }
    ],
    [
      "an event about no change: the run's own commit",
      facts('workflow_dispatch', {}),
      { kind: 'commit', sha: RUN_SHA }
    ],
    ['no change read', undefined, { kind: 'commit', sha: RUN_SHA }]
  ])('%s', (_what, change, place) => {
    expect(checkPlace(change, RUN_SHA)).toEqual(place)
  })
})
