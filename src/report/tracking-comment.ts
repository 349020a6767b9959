// The job's tracking comment over the step's life. A request is recorded on it, as unsure, before it is sent, so a
// run killed at any moment leaves a record a re-run finds; the comment is edited when the job is known, and when it
// ends, all within the time the step can spare.
import type { CommentThread } from '../github/thread.ts'
import type { CommentResult } from '../github/comment-store.ts'
import {
  confirmSubmission,
  sameSubmission,
  type Submission,
  type TrackingState,
  withdrawSubmission,
  withRequests
} from '../github/tracking-record.ts'
import type { Logger, OutputWriter } from '../runner/io.ts'
import { formatDuration } from '../text/duration.ts'
import { isTerminal } from '../text/outcome.ts'
import {
  CANCELLED_COMMENT_DEADLINE_MS,
  COMMENT_GIVES_UP_MS,
  GITHUB_DEADLINE_MS,
  MIN_COMMENT_TIME_MS
} from '../wait/retry.ts'
import { type CommentView, renderComment } from './comment-body.ts'

/** How long the comment may take: each write, and the outcome's edit after a cancellation. */
export interface CommentBudgets {
  readonly deadlineMs: number
  readonly cancelledDeadlineMs: number
  /** Less time than this left for the outcome's edit is not worth a request. */
  readonly minimumMs: number
  /** After a cancellation, the time kept for what comes after the edit, before the step must have ended. */
  readonly keptMs: number
}

const BUDGETS: CommentBudgets = {
  deadlineMs: GITHUB_DEADLINE_MS,
  cancelledDeadlineMs: CANCELLED_COMMENT_DEADLINE_MS,
  minimumMs: MIN_COMMENT_TIME_MS,
  keptMs: COMMENT_GIVES_UP_MS
}

/** Where the comment starts from: the job's state, and the comment when one is known already. */
export interface CommentStart {
  readonly state: TrackingState
  readonly commentId?: number | undefined
  /** Look on the issue for the job's own comment before posting one. */
  readonly find: boolean
}

export interface CommentRunner {
  readonly outputs: OutputWriter
  readonly log: Pick<Logger, 'info' | 'warning'>
  /** Milliseconds since the epoch: when a report is made, recorded for another run to read. */
  readonly date: () => number
  /** Milliseconds on a monotonic clock: how long GitHub has taken. */
  readonly now: () => number
  /** Whether the run was cancelled. */
  readonly cancelled: () => boolean
  /** Resolves once the run is cancelled. */
  readonly whenCancelled: Promise<void>
  /** When the step must have ended, on `now`'s scale (sooner after a SIGTERM); Infinity before a cancel. */
  readonly endsBy: () => number
}

/** What the comment needs of the thread it is on: its writes, and the workflow run it reports from. */
type ThreadWrites = Pick<CommentThread, 'write' | 'run'>

/** Never throws: what cannot be done is a warning, said once. */
export class TrackingComment {
  readonly #github: ThreadWrites
  readonly #runner: CommentRunner
  readonly #budgets: CommentBudgets
  #state: TrackingState
  #commentId: number | undefined
  #find: boolean
  #pending: Promise<void> = Promise.resolve()
  #shown: string | undefined
  #problem: string | undefined
  /** Requests of this run that a written comment records: what a re-run can find. */
  #recorded: readonly Submission[] = []
  #sent: readonly Submission[] = []
  /** Requests this run recorded, then withdrew (they were never sent): the comment must not keep them. */
  #withdrawn: readonly Submission[] = []
  /** What the comment holds, as last written. */
  #written: TrackingState | undefined
  /** How the job had ended before this run's first request, which the record no longer says once one is sent. */
  #endedBefore: string | undefined

  constructor(github: ThreadWrites, runner: CommentRunner, start: CommentStart, budgets = BUDGETS) {
    this.#github = github
    this.#runner = runner
    this.#budgets = budgets
    this.#state = start.state
    this.#commentId = start.commentId
    this.#find = start.find
  }

  /**
   * Records a submission as unsure, and waits until the comment says so (or GitHub fails), before it is sent. A cancel
   * ends the wait: nothing will be sent, and the step must not sit through a slow GitHub to say so.
   */
  async recordBeforeSending(submission: Submission): Promise<void> {
    this.#sent = [...this.#sent, submission]
    // How the job ended before this submission is no longer its end: the record says `ended` again once it ends after.
    const { ended, ...waiting } = this.#state
    this.#endedBefore ??= ended
    this.#state = withRequests(waiting, [{ ...submission, unsure: true }])
    this.show({ kind: 'sending' })
    await Promise.race([this.#pending, this.#runner.whenCancelled])
  }

  /** The API acted on the submission: the comment records it as sent, to this job. */
  accepted(submission: Submission, jobId: string): void {
    this.#state = confirmSubmission({ ...this.#state, job: jobId }, submission)
  }

  /** The submission surely never reached the API: a re-run may send it again. */
  withdraw(submission: Submission): void {
    this.#sent = this.#sent.filter((sent) => sent !== submission)
    this.#withdrawn = [...this.#withdrawn, submission]
    this.#state = withdrawSubmission(this.#state, submission)
    const ended = this.#sent.length === 0 ? this.#endedBefore : undefined
    if (ended !== undefined) this.#state = { ...this.#state, ended }
  }

  /** Posts or edits the comment in the background, while the step goes on. */
  show(view: CommentView): void {
    const state = this.#state
    this.#pending = this.#pending.then(() => this.#write(state, view, this.#budgets.deadlineMs))
  }

  /** What the comment says, below its marker, for this view. */
  text(view: CommentView): string {
    return renderComment(this.#state, view, this.#github.run.url)
  }

  /** Waits for the comment in the background, then edits it with the outcome, within one budget in all. */
  async end(view: CommentView & { kind: 'ended' }): Promise<void> {
    // The record keeps how the job ended and the pull request it opened: what a later run of a pair or a batch needs.
    // Only an end the wait saw counts: after a timeout, a status that looks ended may be the one before a follow-up.
    const { job } = view.result
    if (job !== undefined && isTerminal(view.result.kind)) this.#state = { ...this.#state, ended: job.status }
    if (job?.pr.kind === 'link') this.#state = { ...this.#state, pr: job.pr.url.href }
    // From here on the comment holds the runner: the comment's pending writes and the edit share one budget.
    const budget = this.#runner.cancelled() ? cancelledBudget(this.#runner, this.#budgets) : this.#budgets.deadlineMs
    const left = await timeLeftAfter(this.#pending, budget, this.#runner.now)
    // A record of a request that was never sent must go, or a re-run would take it as perhaps sent and send nothing:
    // that edit is tried with whatever time is left.
    const withdrawing = this.#withdrawn.some((request) =>
      this.#written?.requests.some((kept) => sameSubmission(kept, request))
    )
    const needed = withdrawing ? 1 : this.#budgets.minimumMs
    if (left < needed) {
      this.#runner.log.warning(notEdited(budget, needed))
      return
    }
    await this.#write(this.#state, view, left)
  }

  /** Waits for the comment in the background (the step does not wait for the job, so there is no outcome yet). */
  settle(): Promise<void> {
    return this.#pending
  }

  /** The comment's address, once a write has landed and GitHub gave one. */
  url(): string | undefined {
    return this.#shown
  }

  /** Why the comment could not be written, the first time it could not; undefined when every write landed. */
  problem(): string | undefined {
    return this.#problem
  }

  /** Whether a re-run can find every request this run sent: the comment that records them was written. */
  protectsReruns(): boolean {
    return this.#sent.every((sent) => this.#recorded.includes(sent))
  }

  async #write(state: TrackingState, view: CommentView, deadlineMs: number): Promise<void> {
    const cancelled = this.#runner.cancelled()
    const runUrl = this.#github.run.url
    const render = (fitted: TrackingState): string => renderComment(fitted, view, runUrl)
    const mine = [...this.#sent, ...this.#withdrawn]
    const at = this.#runner.date()
    const write = { commentId: this.#commentId, state, render, find: this.#find, at, cancelled, mine }
    const result = await this.#github.write(write, deadlineMs)
    if (result.kind === 'commented') this.#landed(result, state)
    else if (result.kind === 'warning') this.#warn(result.warning)
  }

  #landed(result: CommentResult & { kind: 'commented' }, written: TrackingState): void {
    this.#commentId = result.commentId
    this.#written = result.state
    this.#find = false
    const holds = (request: Submission) => result.state.requests.some((listed) => sameSubmission(listed, request))
    this.#recorded = this.#sent.filter(holds)
    // The requests the job's own comment held before (found on the issue) stay in it; nothing this run changed since
    // the write went out is undone.
    const found = result.state.requests.filter((listed) => !written.requests.some((own) => sameSubmission(own, listed)))
    if (found.length > 0) this.#state = { ...this.#state, requests: [...found, ...this.#state.requests] }
    if (result.note) this.#warn(result.note)
    if (result.url === undefined) {
      this.#warn('The tracking comment was written, but GitHub gave no http(s) address for it.')
    } else if (result.url !== this.#shown) {
      this.#shown = result.url
      this.#runner.outputs.set('comment-url', result.url)
      this.#runner.log.info(`Tracking comment: ${result.url}`)
    }
  }

  #warn(warning: string): void {
    this.#problem ??= warning
    this.#runner.log.warning(warning)
  }
}

/** After a cancellation: the short budget, or what is left of the step's time when a SIGTERM brought its end near. */
function cancelledBudget(runner: CommentRunner, budgets: CommentBudgets): number {
  const left = runner.endsBy() - runner.now() - budgets.keptMs
  return Math.max(0, Math.floor(Math.min(budgets.cancelledDeadlineMs, left)))
}

/** Why the outcome's edit was not tried: `budget` was all the comment had, `needed` what the edit needs. */
function notEdited(budget: number, needed: number): string {
  const why =
    budget < needed
      ? 'the runner left too little time after its SIGTERM'
      : `GitHub took all of its ${formatDuration(budget)}`
  return `The tracking comment was not edited with the outcome: ${why}.`
}

/** Waits for `work` at most `budgetMs`; returns how much of the budget is left. */
async function timeLeftAfter(work: Promise<void>, budgetMs: number, now: () => number): Promise<number> {
  const started = now()
  let timer: NodeJS.Timeout | undefined
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, budgetMs)))])
  clearTimeout(timer)
  return Math.floor(budgetMs - (now() - started))
}
