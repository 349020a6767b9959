// The action's own tracking comments on one issue or pull request: found by their marker and their author, and
// written (posted, or edited in place) one per job.
import type { Redact } from '../text/redact.ts'
import { httpUrl } from '../text/untrusted-text.ts'
import { type CommentView, renderComment } from './comment-body.ts'
import type { CommentTarget } from './comment-target.ts'
import type { GitHubClient } from './octokit-client.ts'
import { isAuthor, loginOf } from './token-identity.ts'
import { readMarker } from './tracking-marker.ts'
import { type TrackedRequest, type TrackingState, UNKNOWN_JOB, withRequests } from './tracking-state.ts'

/** One of the action's own tracking comments. */
export interface TrackedComment {
  readonly id: number
  readonly state: TrackingState
  /** When it was last edited, as GitHub says (ISO 8601). */
  readonly updatedAt: string
}

export interface TrackingUpdate {
  readonly job: string
  /** Requests to list in the comment (one it lists already is not added twice). */
  readonly add: readonly TrackedRequest[]
  /** The job was started by this step, so no comment tracks it yet. */
  readonly started?: boolean
}

/** The tracking comment's address, or a warning saying why there is none. */
export type CommentResult =
  { readonly kind: 'commented'; readonly url: string } | { readonly kind: 'warning'; readonly warning: string }

/** 100 comments a page: the action looks through an issue's first 10,000 comments. */
const MAX_COMMENT_PAGES = 100

export interface TrackingCommentsOptions {
  readonly target: CommentTarget
  /** The workflow run's page, linked from each comment. */
  readonly runUrl: string
  readonly redact: Redact
  readonly debug: (message: string) => void
}

export class TrackingComments {
  readonly #options: TrackingCommentsOptions
  #login: Promise<string> | undefined
  /** The tracking comments found or written so far, by job: an edit then needs no new search. */
  readonly #known = new Map<string, { readonly id: number; readonly state: TrackingState }>()

  constructor(options: TrackingCommentsOptions) {
    this.#options = options
  }

  /** The action's own tracking comments (its marker, written by the token's own account), oldest update first. */
  async list(github: GitHubClient): Promise<TrackedComment[]> {
    const me = await this.#me(github)
    const own: TrackedComment[] = []
    const { owner, repo, number } = this.#options.target
    const pages = github.octokit.paginate.iterator(github.octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: number,
      per_page: 100
    })
    let read = 0
    for await (const page of pages) {
      // A Link header that never ends (or points back) cannot keep the step reading.
      if (++read > MAX_COMMENT_PAGES) {
        this.#options.debug(`GitHub: stopped after ${MAX_COMMENT_PAGES} pages of comments.`)
        break
      }
      for (const comment of page.data) {
        // Only a comment that starts with the marker (a reply quoting ours starts with "> "), and only our own.
        const state = readMarker(comment.body)
        if (state && isAuthor(comment.user, me)) {
          own.push({ id: comment.id, state, updatedAt: comment.updated_at })
          // A start that may not have made a job gets a comment of its own each time, never an earlier one.
          if (state.job !== UNKNOWN_JOB) this.#known.set(state.job, { id: comment.id, state })
        }
      }
    }
    return own.sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt))
  }

  /** Posts or edits the tracking comment of `update.job`. */
  async write(github: GitHubClient, update: TrackingUpdate, view: CommentView): Promise<CommentResult> {
    // A job just started has no comment yet: the first one goes out without reading the issue first.
    if (update.job !== UNKNOWN_JOB && !update.started && !this.#known.has(update.job)) await this.list(github)
    const existing = this.#known.get(update.job)
    const state = withRequests(existing?.state ?? { job: update.job, requests: [] }, update.add)
    const body = renderComment(state, view, this.#options.runUrl)
    const { owner, repo, number } = this.#options.target
    const response =
      existing === undefined
        ? await github.octokit.rest.issues.createComment({ owner, repo, issue_number: number, body })
        : await github.octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body })
    this.#known.set(update.job, { id: response.data.id, state })
    const url = httpUrl(this.#options.redact(response.data.html_url))
    if (!url) {
      const { noun } = this.#options.target
      return {
        kind: 'warning',
        warning: `Commented on ${noun} #${number} in ${owner}/${repo}, but GitHub gave no http(s) address for the comment.`
      }
    }
    return { kind: 'commented', url: url.href }
  }

  /** Who the token acts as, asked once (and again only after a failure). */
  async #me(github: GitHubClient): Promise<string> {
    this.#login ??= loginOf(github)
    return this.#login.catch((error: unknown) => {
      this.#login = undefined
      throw error
    })
  }
}
