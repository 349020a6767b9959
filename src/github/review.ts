// The grounding check's review on the docs pull request: one review a check, with a comment on each line that adds a
// name found nowhere, through docs-token when given. It replaces this action's own earlier review (found by its
// marker and written by the same token), never another's: the earlier one's line comments are removed and its text
// says it was replaced. The review is never posted twice: a create that may have landed is not sent again.
import { forLog } from '../text/untrusted.ts'
import { briefFailure, docsAdvice, failureOf } from './failure.ts'
import { fieldsAt, fieldsOf, httpStatusOf, listOf, positiveIntegerOf, textOf } from './fields.ts'
import type { GitHubClient } from './octokit.ts'
import type { Done, PullRef } from './pulls.ts'
import type { GitHubSession } from './session.ts'

/** Marks a review this action's grounding check wrote and has not replaced yet. */
export const REVIEW_MARKER = '<!-- mintlify-agent-action:grounding -->'

/** A comment on one line the pull request adds. */
export interface ReviewLine {
  readonly path: string
  readonly line: number
  readonly body: string
}

/** The review to post: its text, and its comments on lines. */
export interface ReviewPost {
  readonly body: string
  readonly lines: readonly ReviewLine[]
}

/** The most of our own earlier reviews replaced in one run, and the most reviews read to find them. */
const MOST_REPLACED = 10
const REVIEWS_READ = 300

export class DocsReview {
  readonly #session: GitHubSession

  constructor(session: GitHubSession) {
    this.#session = session
  }

  /**
   * Posts `post` (none when every name is found), then replaces this action's earlier reviews with `replaced` as their
   * text. Never throws: what failed is a warning.
   */
  async replace(ref: PullRef, post: ReviewPost | undefined, replaced: string): Promise<Done<void>> {
    const client = this.#session.client({ cancellable: false }, 'docs')
    const where = { owner: ref.owner, repo: ref.repo, pull_number: ref.number }
    let doing = `read the reviews of pull request #${ref.number} in ${forLog(`${ref.owner}/${ref.repo}`, 100)}`
    try {
      const login = await (this.#session.docsToken ? this.#session.docsLogin() : this.#session.login())
      const earlier = login === undefined ? [] : await ownReviews(client, where, login)
      doing = `post the grounding review on pull request #${ref.number}`
      if (post !== undefined) await client.bounded(create(client, where, post))
      doing = `replace the earlier grounding review on pull request #${ref.number}`
      for (const id of earlier.slice(0, MOST_REPLACED)) await client.bounded(retire(client, where, id, replaced))
      return { kind: 'done', value: undefined }
    } catch (error) {
      const failure = failureOf(error, client, false)
      const advice = docsAdvice(this.#session, ref, 'pull-requests: write')
      return {
        kind: 'warning',
        warning: briefFailure(`Could not ${doing}`, failure, { advice, refusedOn: [401, 403, 404] })
      }
    }
  }
}

type Where = { readonly owner: string; readonly repo: string; readonly pull_number: number }

/** This action's reviews not replaced yet, written by the token's own login: their ids. */
async function ownReviews(client: GitHubClient, where: Where, login: string): Promise<number[]> {
  const ids: number[] = []
  let read = 0
  for await (const page of client.octokit.paginate.iterator(client.octokit.rest.pulls.listReviews, {
    ...where,
    per_page: 100
  })) {
    for (const review of listOf(page.data)) {
      const fields = fieldsOf(review)
      const id = positiveIntegerOf(fields['id'])
      const mine = textOf(fieldsAt(review, 'user')['login']) === login && textOf(fields['body']).includes(REVIEW_MARKER)
      if (mine && id !== undefined) ids.push(id)
    }
    read += 100
    if (read >= REVIEWS_READ) break
  }
  return ids
}

/**
 * Posts the review once. A refusal of its line comments (422: a line no longer in the diff) surely made nothing, and
 * the review goes again without them: its text lists the names too.
 */
async function create(client: GitHubClient, where: Where, post: ReviewPost): Promise<void> {
  const body = `${REVIEW_MARKER}\n${post.body}`
  const comments = post.lines.map((line) => ({
    path: line.path,
    line: line.line,
    side: 'RIGHT' as const,
    body: line.body
  }))
  const once = { retries: 0 }
  try {
    await client.octokit.rest.pulls.createReview({ ...where, event: 'COMMENT', body, comments, request: once })
  } catch (error) {
    if (httpStatusOf(error) !== 422 || comments.length === 0) throw error
    await client.octokit.rest.pulls.createReview({ ...where, event: 'COMMENT', body, request: once })
  }
}

/** Removes an earlier review's line comments, and says in its text that it was replaced. */
async function retire(client: GitHubClient, where: Where, id: number, replaced: string): Promise<void> {
  const { data } = await client.octokit.rest.pulls.listCommentsForReview({ ...where, review_id: id, per_page: 100 })
  for (const comment of listOf(data)) {
    const commentId = positiveIntegerOf(fieldsOf(comment)['id'])
    if (commentId === undefined) continue
    await client.octokit.rest.pulls
      .deleteReviewComment({ owner: where.owner, repo: where.repo, comment_id: commentId })
      .catch((error: unknown) => {
        if (httpStatusOf(error) !== 404) throw error
      })
  }
  await client.octokit.rest.pulls.updateReview({ ...where, review_id: id, body: replaced })
}
