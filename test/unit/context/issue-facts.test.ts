import { describe, expect, it } from 'vitest'
import { issueFacts } from '../../../src/context/issue-facts.ts'
import { repositoryName } from '../../../src/context/repository-name.ts'
import { commentOnPullRequest } from './event-payloads.ts'

const ACME = repositoryName('acme/widgets', {})

describe('issueFacts', () => {
  it('reads a comment on a pull request: the conversation and the comment that started the run', () => {
    expect(issueFacts('issue_comment', commentOnPullRequest(), ACME)).toEqual({
      facts: {
        kind: 'issue',
        repository: 'acme/widgets',
        number: 77,
        title: 'Retry on 502',
        url: 'https://github.com/acme/widgets/pull/77',
        author: 'octocat',
        body: 'Retries 502s.',
        isPullRequest: true,
        comment: {
          author: 'mona',
          url: 'https://github.com/acme/widgets/pull/77#issuecomment-1',
          body: '/docs document the new option'
        }
      },
      fetch: { kind: 'nothing' }
    })
  })

  it('reads an issue, without a comment for an issues event', () => {
    const payload = { ...commentOnPullRequest(), issue: { number: 5, title: 'Docs for retries' } }
    expect(issueFacts('issues', payload, ACME).facts).toMatchObject({
      number: 5,
      isPullRequest: false,
      comment: undefined
    })
  })

  it.each([{}, { issue: { number: -2 } }, { issue: [] }])('adds nothing without an issue number: %j', (payload) => {
    expect(issueFacts('issues', payload, ACME).facts).toEqual({
      kind: 'none',
      reason: 'the "issues" event\'s payload has no issue number'
    })
  })
})
