import { describe, expect, it } from 'vitest'
import type { IssueFacts } from '../../../src/context/change-facts.ts'
import { factsFromEvent } from '../../../src/context/facts-from-event.ts'
import { issueSection } from '../../../src/context/issue-section.ts'
import { commentOnPullRequest } from './event-payloads.ts'

function facts(event = 'issue_comment'): IssueFacts {
  const read = factsFromEvent(event, commentOnPullRequest(), 'acme/widgets').facts
  if (read.kind !== 'issue') throw new Error('not an issue')
  return read
}

describe('issueSection', () => {
  it('names a pull request conversation and the comment that started the run, and quotes both', () => {
    const plan = issueSection(facts())
    expect(plan.identity).toBe('Pull request #77 in `acme/widgets` (a comment on its conversation)')
    expect(plan.facts).toEqual([
      '- Title: `Retry on 502`',
      '- URL: `https://github.com/acme/widgets/pull/77`',
      '- Author: `octocat`',
      '- Comment that started this run: by `mona`, `https://github.com/acme/widgets/pull/77#issuecomment-1`'
    ])
    expect(plan.quotes.map((quote) => [quote.label, quote.content])).toEqual([
      ['Pull request body, as written by its author:', 'Retries 502s.'],
      ['Comment that started this run, as written by its author:', '/docs document the new option']
    ])
  })

  it('names an issue, without a comment for an issues event', () => {
    const plan = issueSection({ ...facts('issues'), isPullRequest: false, body: '' })
    expect(plan.identity).toBe('Issue #77 in `acme/widgets`')
    expect(plan.quotes).toEqual([
      { label: 'Issue body, as written by its author:', content: '', ifEmpty: 'The issue has no body.' }
    ])
  })
})
