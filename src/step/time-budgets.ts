// How long each part of the step may take, and the one place that computes a request's time budget.

/**
 * Everything one piece of GitHub work does (reading the tracking comments, or writing one) ends within this. After
 * the job ends, the comment holds the runner no longer than this in all.
 */
export const GITHUB_DEADLINE_MS = 60_000
/** The tracking comment's edit after a cancellation must fit in the time the runner leaves. */
export const CANCELLED_COMMENT_DEADLINE_MS = 2000
/** Less time than this left for an edit is not worth a request. */
export const MIN_COMMENT_TIME_MS = 1000
/** After a cancellation, what is left (outputs, summary) takes milliseconds; editing a comment takes longer. */
const CANCEL_GRACE_MS = 800
/** After a follow-up, a job that never shows `active` again is taken as finished after this long. */
export const FOLLOW_UP_SETTLE_MS = 60_000
/** A job this step has just started or followed up may answer 404 for this long before it can be read. */
export const NOT_FOUND_GRACE_MS = 30_000
/** A request started at the deadline still gets this long. */
const LAST_REQUEST_MIN_MS = 1000

/** The deadline of one request to the admin API: request-timeout, or what is left of the step's time. */
export function requestBudget(requestTimeoutMs: number, deadline: number, now: number): number {
  return Math.min(requestTimeoutMs, Math.max(deadline - now, LAST_REQUEST_MIN_MS))
}

/** How long the step may take to finish after a cancellation: longer when it has a comment to edit. */
export function cancelGraceMs(comment: boolean): number {
  return CANCEL_GRACE_MS + (comment ? CANCELLED_COMMENT_DEADLINE_MS : 0)
}
