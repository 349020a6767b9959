import { describe, expect, it } from 'vitest'
import type { PushFacts } from '../../../src/context/change-facts.ts'
import { factsFromEvent } from '../../../src/context/facts-from-event.ts'
import { pushSection } from '../../../src/context/push-section.ts'
import { NO_COMMIT, pushToMain } from './event-payloads.ts'

function facts(change: Record<string, unknown> = {}): PushFacts {
  const read = factsFromEvent('push', { ...pushToMain(), ...change }, 'acme/widgets').facts
  if (read.kind !== 'push') throw new Error('not a push')
  return read
}

describe('pushSection', () => {
  it('names the push, its ref, commits and compare link', () => {
    const plan = pushSection(facts(), {})
    expect(plan.identity).toBe('Push to `refs/heads/main` in `acme/widgets`')
    expect(plan.facts).toEqual([
      '- Before → after: `1a2b3c4` → `5d6e7f8`',
      '- Compare: `https://github.com/acme/widgets/compare/1a2b3c4d5e6f...5d6e7f8091a2`',
      '- Pushed by: `mona`'
    ])
    expect(plan.commits?.list.items).toEqual([
      '- `bbbbbbb` `Document retries` by `Hubot`',
      '- `aaaaaaa` `Add retries` by `mona`'
    ])
  })

  it.each([
    [
      { before: NO_COMMIT, created: true },
      '- Created: this push created the branch, so there is no earlier commit to compare with'
    ],
    [{ after: NO_COMMIT, deleted: true }, '- Deleted: this push deleted the branch, so there is nothing to diff'],
    [{ forced: true }, "- Forced: this push rewrote the branch's history"],
    [
      { ref: 'refs/tags/v2.4.0', before: NO_COMMIT },
      '- Created: this push created the tag, so there is no earlier commit to compare with'
    ]
  ])('says what the push did: %j', (change, line) => {
    expect(pushSection(facts(change), {}).facts).toContain(line)
  })

  it("lists the compare API's commits over the payload's, and counts all of them", () => {
    const commits = [{ sha: 'c'.repeat(40), message: 'From the compare API', author: 'mona' }]
    const plan = pushSection(facts({ size: 3 }), { commits, commitsTotal: 260 })
    expect(plan.commits?.list.items).toEqual(['- `ccccccc` `From the compare API` by `mona`'])
    expect(plan.commits?.total).toBe(260)
  })

  it('names the head commit when there are no commits to list, as for a tag', () => {
    const plan = pushSection(facts({ ref: 'refs/tags/v1', commits: [] }), {})
    expect(plan.commits).toBeUndefined()
    expect(plan.facts).toContain('- Head commit: `bbbbbbb` `Document retries` by `Hubot`')
  })
})
