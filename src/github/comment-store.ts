// The action's own tracking comments on one issue or pull request: the store finds them by their marker and their
// author, and the writer writes them (posted, or edited in place), one per job.
import type { Redact } from '../text/redact.ts'
import { shownHttpUrl } from '../text/untrusted.ts'
import { type GitHubClient, isAuthor, loginOf } from './octokit.ts'
import { httpStatusOf, lastPageOf, mayHaveLanded } from './fields.ts'
import type { CommentTarget } from './event.ts'
import {
  fitComment,
  lastReported,
  mergeRecords,
  readMarker,
  sameComment,
  type Submission,
  type TrackingState,
  UNKNOWN_JOB,
  withRequests
} from './tracking-record.ts'

export { fitComment, MAX_COMMENT_LENGTH } from './tracking-record.ts'

/** One of the action's own tracking comments. */
export interface StoredComment {
  readonly id: number
  readonly state: TrackingState
  /** Its address, when GitHub gave an http(s) one. */
  readonly url: string | undefined
}

export interface CommentWrite {
  /** The comment to edit; undefined to post one (or, with `find`, to edit the job's own comment if it has one). */
  readonly commentId: number | undefined
  readonly state: TrackingState
  /** The comment's text below its marker, for this state (which may be fitted to GitHub's limit first). */
  readonly render: (state: TrackingState) => string
  /** Look on the issue for the job's own comment before posting one: a job started elsewhere, or followed up. */
  readonly find: boolean
  /** The time of this report, recorded in the marker. */
  readonly at: number
  /** The run was cancelled: the write must fit the little time the runner leaves. */
  readonly cancelled: boolean
  /**
   * The requests this run recorded (sent, or withdrawn since): on an edit, `state` says what became of them, and the
   * comment as it is now says what became of every other (another run's).
   */
  readonly mine: readonly Submission[]
}

export type CommentResult =
  /** `state` is what the comment now holds; `note` says something the log should (the comment had been deleted). */
  | {
      readonly kind: 'commented'
      readonly commentId: number
      readonly url: string | undefined
      readonly state: TrackingState
      readonly note?: string
    }
  | { readonly kind: 'warning'; readonly warning: string }

/** 100 comments a page: the action looks through 10,000 of an issue's comments, the newest first. */
const MAX_COMMENT_PAGES = 100

export interface CommentStoreOptions {
  readonly target: CommentTarget
  readonly redact: Redact
  /** Who the token acts as, when another part of the step asks GitHub too: asked once per run, not twice. */
  readonly login?: (() => Promise<string | undefined>) | undefined
  readonly warning: (message: string) => void
}

/** The action's own tracking comments on one issue or pull request, as found and as written so far. */
export class CommentStore {
  readonly #options: CommentStoreOptions
  #login: Promise<string> | undefined
  /** The tracking comments found or written so far, by job: an edit then needs no new search. */
  readonly #known = new Map<string, StoredComment>()

  constructor(options: CommentStoreOptions) {
    this.#options = options
  }

  /** The action's own tracking comments (its marker, written by the token's own account), oldest report first. */
  async list(github: GitHubClient): Promise<StoredComment[]> {
    const me = await this.#me(github)
    const own: StoredComment[] = []
    for await (const page of this.#newestPagesFirst(github)) {
      for (const comment of page) {
        // Only a comment that starts with the marker (a reply quoting ours starts with "> "), and only our own.
        const state = readMarker(comment.body)
        if (!state || !isAuthor(comment.user, me)) continue
        const tracked = { id: comment.id, state, url: shownHttpUrl(comment.html_url, this.#options.redact)?.href }
        own.push(tracked)
      }
    }
    // The action's own record says which job it reported last: a person's edit of an old comment changes nothing.
    own.sort((a, b) => lastReported(a.state) - lastReported(b.state) || a.id - b.id)
    // A start that may not have made a job gets a comment of its own each time, never an earlier one.
    for (const tracked of own) this.remember(tracked)
    return own
  }

  /** The job's own comment, as last found or written; undefined when none is known yet. */
  known(job: string): StoredComment | undefined {
    return this.#known.get(job)
  }

  /** A comment just written: the job's own from now on (a start that may not have made a job has none). */
  remember(tracked: StoredComment): void {
    if (tracked.state.job !== UNKNOWN_JOB) this.#known.set(tracked.state.job, tracked)
  }

  /** Page 1 (to learn how many there are), then the newest pages, down to the cap. */
  async *#newestPagesFirst(github: GitHubClient): AsyncGenerator<readonly ListedComment[]> {
    const { owner, repo, number, noun } = this.#options.target
    const page = (n: number) =>
      github.octokit.rest.issues.listComments({ owner, repo, issue_number: number, per_page: 100, page: n })
    const first = await page(1)
    const last = lastPageOf(first.headers.link)
    const oldest = Math.max(2, last - MAX_COMMENT_PAGES + 2)
    if (oldest > 2) {
      this.#options.warning(
        `${noun} #${number} has more than ${(MAX_COMMENT_PAGES * 100).toLocaleString('en-US')} comments: the search for tracking comments read the oldest 100 and the newest ${((MAX_COMMENT_PAGES - 1) * 100).toLocaleString('en-US')}.`
      )
    }
    for (let n = last; n >= oldest; n--) yield (await page(n)).data
    yield first.data
  }

  /** Who the token acts as, asked once (and again only after a failure). */
  async #me(github: GitHubClient): Promise<string> {
    const shared = this.#options.login
    this.#login ??= shared ? shared().then((login) => login ?? loginOf(github)) : loginOf(github)
    return this.#login.catch((error: unknown) => {
      this.#login = undefined
      throw error
    })
  }
}

/** Writes the action's tracking comments on one issue or pull request: posted, or edited in place, one per job. */
export class CommentWriter {
  readonly #store: CommentStore
  readonly #options: Pick<CommentStoreOptions, 'target' | 'redact'>

  constructor(store: CommentStore, options: Pick<CommentStoreOptions, 'target' | 'redact'>) {
    this.#store = store
    this.#options = options
  }

  /** Posts or edits a tracking comment; throws what GitHub threw. */
  async write(github: GitHubClient, write: CommentWrite): Promise<CommentResult> {
    const { commentId, state: wanted, fresh } = await this.#whereToWrite(github, write)
    const state =
      commentId === undefined || fresh ? wanted : await this.#mergedWith(github, commentId, wanted, write.mine)
    const fitted = fitComment({ ...state, reportedAt: write.at }, write.render)
    if (fitted === undefined) {
      return {
        kind: 'warning',
        warning: `The tracking comment was not written: with this job's id and prompt it would pass the 65,536 characters GitHub allows a comment.`
      }
    }
    const written =
      commentId === undefined ? await this.#post(github, fitted) : await this.#edit(github, commentId, fitted)
    const tracked = { id: written.id, state: fitted.state, url: written.url }
    this.#store.remember(tracked)
    return {
      kind: 'commented',
      commentId: written.id,
      url: written.url,
      state: fitted.state,
      ...(written.note ? { note: written.note } : {})
    }
  }

  /**
   * The comment to edit, and the state to write: with `find`, the job's own comment's requests come first. `fresh`
   * when the comment was read just now.
   */
  async #whereToWrite(
    github: GitHubClient,
    write: CommentWrite
  ): Promise<{ commentId: number | undefined; state: TrackingState; fresh: boolean }> {
    const { state } = write
    const asGiven = { commentId: write.commentId, state, fresh: false }
    if (write.commentId !== undefined || !write.find || state.job === UNKNOWN_JOB) return asGiven
    const listed = this.#store.known(state.job) === undefined
    if (listed) await this.#store.list(github)
    const found = this.#store.known(state.job)
    return found ? { commentId: found.id, state: withRequests(found.state, state.requests), fresh: listed } : asGiven
  }

  /**
   * What to write over the comment as it is now: another run may have recorded a request on it since this one read
   * it (a follow-up, while this run waits), and that record must stay. One read before each edit.
   */
  async #mergedWith(
    github: GitHubClient,
    commentId: number,
    state: TrackingState,
    mine: readonly Submission[]
  ): Promise<TrackingState> {
    const { owner, repo } = this.#options.target
    try {
      const { data } = await github.octokit.rest.issues.getComment({ owner, repo, comment_id: commentId })
      const stored = readMarker(data.body)
      return stored === undefined ? state : mergeRecords(stored, state, mine)
    } catch (error) {
      // Deleted since: the edit posts it anew.
      if (httpStatusOf(error) === 404) return state
      throw error
    }
  }

  /**
   * Posts a new comment, never blindly twice: GitHub may have made a comment it answered with a 5xx or never
   * answered at all, so before posting again it looks for that comment's marker.
   */
  async #post(github: GitHubClient, fitted: { body: string; state: TrackingState }): Promise<Written> {
    const { owner, repo, number } = this.#options.target
    const post = () =>
      github.octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number: number,
        body: fitted.body,
        request: { retries: 0 }
      })
    try {
      return this.#written(await post())
    } catch (error) {
      if (!mayHaveLanded(error)) throw error
    }
    const landed = (await this.#store.list(github)).find((tracked) => sameComment(tracked.state, fitted.state))
    return landed ?? this.#written(await post())
  }

  /** Edits a comment; one deleted since is posted anew, and the log says so. */
  async #edit(
    github: GitHubClient,
    commentId: number,
    fitted: { body: string; state: TrackingState }
  ): Promise<Written> {
    const { owner, repo } = this.#options.target
    try {
      return this.#written(
        await github.octokit.rest.issues.updateComment({ owner, repo, comment_id: commentId, body: fitted.body })
      )
    } catch (error) {
      if (httpStatusOf(error) !== 404) throw error
    }
    const posted = await this.#post(github, fitted)
    return { ...posted, note: 'The tracking comment had been deleted from the issue, so a new one was posted.' }
  }

  #written(response: { data: { id: number; html_url: string } }): Written {
    return { id: response.data.id, url: shownHttpUrl(response.data.html_url, this.#options.redact)?.href }
  }
}

interface Written {
  readonly id: number
  readonly url: string | undefined
  readonly note?: string
}

type ListedComment = {
  readonly id: number
  readonly body?: string | null | undefined
  readonly html_url: string
  readonly user: { login?: string; type?: string } | null
}
