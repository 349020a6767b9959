import { describe, expect, it } from 'vitest'
import { reviewsOf } from '../../../src/github/agent-pulls.ts'

const AGENT = { login: 'mintlify[bot]', bot: true }
const HEAD = 'b'.repeat(40)
const EARLIER = 'a'.repeat(40)
const review = (login: string, state: string, commit = HEAD) => ({
  user: { login, type: 'User' },
  state,
  commit_id: commit
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
})
