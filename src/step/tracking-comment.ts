// The job's tracking comment over the step's life: posted as soon as the job is known, edited when it ends, all
// in the background and within the time the step can spare.
import type { CommentView } from '../github/comment-body.ts'
import type { GitHubSide } from '../github/open-github.ts'
import type { CommentResult, TrackingUpdate } from '../github/tracking-comments.ts'
import type { OutputWriter } from '../runner/outputs.ts'
import type { Logger } from '../runner/runner-io.ts'
import { formatDuration } from '../text/duration.ts'
import { CANCELLED_COMMENT_DEADLINE_MS, GITHUB_DEADLINE_MS, MIN_COMMENT_TIME_MS } from './time-budgets.ts'

export interface TrackingComment {
  /** Posts or edits the comment in the background, while the step goes on. */
  show(view: CommentView): void
  /** Waits for the comment in the background, then edits it with the outcome, within one budget in all. */
  end(view: CommentView & { kind: 'ended' }): Promise<void>
  /** Waits for the comment in the background (the step does not wait for the job, so there is no outcome yet). */
  settle(): Promise<void>
}

/** How long the comment may take: each write, and the outcome's edit after a cancellation. */
export interface CommentBudgets {
  readonly deadlineMs: number
  readonly cancelledDeadlineMs: number
  /** Less time than this left for the outcome's edit is not worth a request. */
  readonly minimumMs: number
}

const BUDGETS: CommentBudgets = {
  deadlineMs: GITHUB_DEADLINE_MS,
  cancelledDeadlineMs: CANCELLED_COMMENT_DEADLINE_MS,
  minimumMs: MIN_COMMENT_TIME_MS
}

/** Never throws: what cannot be done is a warning. */
export function trackingComment(
  github: Pick<GitHubSide, 'write'>,
  update: TrackingUpdate,
  runner: { readonly outputs: OutputWriter; readonly log: Pick<Logger, 'info' | 'warning'> },
  budgets: CommentBudgets = BUDGETS
): TrackingComment {
  let shown: string | undefined
  let pending: Promise<void> = Promise.resolve()
  const announce = (commented: CommentResult): void => {
    if (commented.kind === 'warning') {
      runner.log.warning(commented.warning)
      return
    }
    if (commented.url === shown) return
    shown = commented.url
    runner.outputs.set('comment-url', commented.url)
    runner.log.info(`Tracking comment: ${commented.url}`)
  }
  return {
    show: (view) => {
      pending = github.write(update, view, budgets.deadlineMs).then(announce)
    },
    end: async (view) => {
      // From here on the comment holds the runner: the first comment's remaining time and the edit share one budget.
      const budget = view.result.kind === 'cancelled' ? budgets.cancelledDeadlineMs : budgets.deadlineMs
      const left = await timeLeftAfter(pending, budget)
      if (left < budgets.minimumMs) {
        runner.log.warning(
          `The tracking comment was not edited with the outcome: GitHub took all of its ${formatDuration(budget)}.`
        )
        return
      }
      announce(await github.write(update, view, left))
    },
    settle: () => pending
  }
}

/** Waits for `work` at most `budgetMs`; returns how much of the budget is left. */
async function timeLeftAfter(work: Promise<void>, budgetMs: number): Promise<number> {
  const started = Date.now()
  let timer: NodeJS.Timeout | undefined
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, budgetMs)))])
  clearTimeout(timer)
  return budgetMs - (Date.now() - started)
}
