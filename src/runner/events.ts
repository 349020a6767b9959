// GitHub's event names, in sets by what the event carries, and the name as our own words may quote it.

/** The events a pull request's life sends: what `mode: pair` runs on. */
export const PULL_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target'])

/** The events of a comment a person may ask with, with `command`. */
export const COMMENT_EVENTS: ReadonlySet<string> = new Set(['issue_comment', 'pull_request_review_comment'])

/** The events of a label added to an issue or a pull request, with `label`. */
export const LABEL_EVENTS: ReadonlySet<string> = new Set(['issues', ...PULL_EVENTS])

/** The events a person asks with: a comment (with `command`), an added label (with `label`). */
export const REQUEST_EVENTS: ReadonlySet<string> = new Set([...COMMENT_EVENTS, ...LABEL_EVENTS])

/** Events that are about a change the gates can judge (an author, labels, files). */
export const CHANGE_EVENTS: ReadonlySet<string> = new Set([
  ...PULL_EVENTS,
  'pull_request_review_comment',
  'push',
  'issues',
  'issue_comment',
  'release'
])

/** The events of an issue or a pull request: a workflow that runs a request step on them may mean it to act there. */
export const THREAD_EVENTS: ReadonlySet<string> = new Set([
  'issues',
  'issue_comment',
  ...PULL_EVENTS,
  'pull_request_review',
  'pull_request_review_comment',
  'pull_request_review_thread'
])

/** The event's name as our own words may quote it: the letters, digits and `_` of a GitHub event name. */
export function eventLabel(eventName: string): string {
  return eventName.replace(/\W/g, '').slice(0, 50) || 'unnamed'
}
