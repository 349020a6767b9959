import { describe, expect, it } from 'vitest'
import { mergeBlocker, type PullDetails, reviewsOf } from '../../../src/github/agent-pulls.ts'

const AGENT = { login: 'mintlify[bot]', bot: true }
const HEAD = 'b'.repeat(40)
const EARLIER = 'a'.repeat(40)
const review = (login: string, state: string, commit = HEAD, association = 'MEMBER') => ({
  user: { login, type: 'User' },
  state,
  commit_id: commit,
  author_association: association
})

describe('reviewsOf', () => {
  it('takes an approval given on the head commit', () => {
    expect(reviewsOf([review('mona', 'APPROVED')], AGENT, HEAD)).toMatchObject({ approved: true, byPeople: true })
  })

  it('takes no approval given on an earlier commit: what was pushed after it, nobody approved', () => {
    expect(reviewsOf([review('mona', 'APPROVED', EARLIER)], AGENT, HEAD)).toMatchObject({
      approved: false,
      changesRequested: false,
      byPeople: true
    })
  })

  it("counts each person's latest: a request for changes after an approval blocks, a dismissal ends it", () => {
    expect(reviewsOf([review('mona', 'APPROVED'), review('mona', 'CHANGES_REQUESTED')], AGENT, HEAD)).toMatchObject({
      approved: false,
      changesRequested: true
    })
    expect(reviewsOf([review('mona', 'CHANGES_REQUESTED'), review('mona', 'DISMISSED')], AGENT, HEAD)).toMatchObject({
      approved: false,
      changesRequested: false
    })
  })

  it('counts no approval or request for changes from someone without write access: on a public repository anyone may review', () => {
    for (const association of ['NONE', 'CONTRIBUTOR', 'FIRST_TIME_CONTRIBUTOR', '']) {
      expect(reviewsOf([review('stranger', 'APPROVED', HEAD, association)], AGENT, HEAD)).toMatchObject({
        approved: false,
        byPeople: true
      })
    }
    expect(reviewsOf([review('owner', 'APPROVED', HEAD, 'OWNER')], AGENT, HEAD).approved).toBe(true)
    expect(reviewsOf([review('friend', 'APPROVED', HEAD, 'COLLABORATOR')], AGENT, HEAD).approved).toBe(true)
  })
})

describe('mergeBlocker', () => {
  const details = (more: Partial<PullDetails> = {}): PullDetails => ({
    mergeable: true,
    mergeState: 'clean',
    headSha: HEAD,
    reviews: { approved: true, changesRequested: false, byPeople: true },
    author: AGENT,
    createdAt: 0,
    draft: false,
    ...more
  })

  it('lets an approved, mergeable pull request a bot opened be merged', () => {
    expect(mergeBlocker(details())).toBeUndefined()
    expect(mergeBlocker(details({ author: { login: 'docs-app[bot]', bot: true } }))).toBeUndefined()
  })

  it("never merges a person's pull request, or a draft", () => {
    expect(mergeBlocker(details({ author: { login: 'mona', bot: false } }))).toBe(
      "a person's account opened it: a person merges it"
    )
    expect(mergeBlocker(details({ draft: true }))).toBe('it is a draft')
  })
})
