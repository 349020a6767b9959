import { describe, expect, it } from 'vitest'
import { factsFromEvent } from '../../../src/context/facts-from-event.ts'
import { commentOnPullRequest, mergedPullRequest, publishedRelease, pushToMain } from './event-payloads.ts'
import { seededRandom } from './seeded-random.ts'

describe('factsFromEvent', () => {
  it.each([
    ['pull_request', mergedPullRequest(), 'pull-request', 'pull-request-files'],
    ['pull_request_target', mergedPullRequest(), 'pull-request', 'pull-request-files'],
    ['push', pushToMain(), 'push', 'compare'],
    ['release', publishedRelease(), 'release', 'nothing'],
    ['issues', commentOnPullRequest(), 'issue', 'nothing'],
    ['issue_comment', commentOnPullRequest(), 'issue', 'nothing']
  ])('reads a %s event as %s facts, fetching %s', (event, payload, kind, fetch) => {
    const read = factsFromEvent(event, payload, 'acme/widgets')
    expect(read.facts.kind).toBe(kind)
    expect(read.fetch.kind).toBe(fetch)
  })

  it.each(['workflow_dispatch', 'schedule', 'pull_request_review', 'repository_dispatch', ''])(
    'adds nothing for a %j event, naming it',
    (event) => {
      expect(factsFromEvent(event, mergedPullRequest(), 'acme/widgets')).toEqual({
        facts: { kind: 'none', reason: `a "${event || 'unnamed'}" event describes no change` },
        fetch: { kind: 'nothing' }
      })
    }
  )

  it('quotes an odd event name only by its word characters', () => {
    const read = factsFromEvent('sched"ule\n::error::x', {}, 'acme/widgets')
    expect(read.facts).toEqual({ kind: 'none', reason: 'a "scheduleerrorx" event describes no change' })
  })

  it('never throws, whatever the payload holds', () => {
    const random = seededRandom(2024)
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T
    const anyValue = (depth: number): unknown => {
      const leaves = [null, undefined, true, false, 0, -1, 1.5, 2 ** 64, '', 'text', '0'.repeat(40)]
      if (depth > 3 || random() < 0.4) return pick(leaves)
      if (random() < 0.3) return Array.from({ length: Math.floor(random() * 4) }, () => anyValue(depth + 1))
      const keys = ['number', 'pull_request', 'issue', 'comment', 'release', 'commits', 'head', 'base', 'repo', 'user']
      const more = ['labels', 'title', 'body', 'before', 'after', 'ref', 'id', 'message', 'author', 'full_name']
      return Object.fromEntries(Array.from({ length: 4 }, () => [pick([...keys, ...more]), anyValue(depth + 1)]))
    }
    const events = ['pull_request', 'pull_request_target', 'push', 'release', 'issues', 'issue_comment', 'schedule']
    for (let round = 0; round < 2000; round += 1) {
      expect(() => factsFromEvent(pick(events), anyValue(0), pick(['acme/widgets', '', 'x']))).not.toThrow()
    }
  })
})
