// The outcome vocabulary: how a step can end, what each ending and each stage before it is called, and which endings
// `fail-on` may name. Every room says an outcome in these words; this file imports nothing of the action's own.

/** The statuses after which an agent job no longer changes. */
export const TERMINAL_STATUSES = ['completed', 'archived', 'failed'] as const
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number]

export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status)
}

/**
 * The step's `outcome`: a terminal status of the job, or `timeout`, `error`, `cancelled`, `started` (the step did
 * not wait: `wait: false`), `skipped` (nothing worth a job: a gate, or nothing new) or `rate-limited` (a quota, ours or
 * Mintlify's, left no job to spend).
 */
export type Outcome = TerminalStatus | 'timeout' | 'error' | 'cancelled' | 'started' | 'skipped' | 'rate-limited'

/**
 * An outcome, `active` while the job runs, `sending` while a prompt is on its way, or (with `mode: pair`) how the code
 * pull request ended, or that its job took no follow-up and another replaces it, or (with `mode: sweep`) that the
 * agent pull requests were swept, or that a sweep's follow-up was refused: what the summary and the comment say.
 */
export type Stage =
  Outcome | 'active' | 'sending' | 'merged' | 'closed' | 'reopened' | 'superseded' | 'update-refused' | 'swept'

/** What the log, the summary and the comment call each stage. */
export const STAGE_WORDING: Readonly<Record<Stage, { readonly emoji: string; readonly title: string }>> = {
  sending: { emoji: '📤', title: 'Sending the prompt to the Mintlify agent' },
  active: { emoji: '⏳', title: 'Mintlify agent job running' },
  started: { emoji: '🚀', title: 'Mintlify agent job started' },
  completed: { emoji: '✅', title: 'Mintlify agent job completed' },
  archived: { emoji: '🗄️', title: 'Mintlify agent job archived' },
  failed: { emoji: '❌', title: 'Mintlify agent job failed' },
  timeout: { emoji: '⏱️', title: 'Timed out waiting for the Mintlify agent job' },
  error: { emoji: '❌', title: 'The Mintlify agent step stopped on an error' },
  cancelled: { emoji: '⏹️', title: 'Run cancelled' },
  skipped: { emoji: '⏭️', title: 'No Mintlify agent job needed' },
  'rate-limited': { emoji: '🚦', title: 'Mintlify agent job not started: quota reached' },
  merged: { emoji: '🔀', title: 'Code pull request merged' },
  closed: { emoji: '🚫', title: 'Code pull request closed' },
  reopened: { emoji: '🔁', title: 'Code pull request reopened' },
  superseded: { emoji: '↪️', title: 'Follow-up refused: a new job takes over' },
  'update-refused': { emoji: '↪️', title: 'Follow-up refused' },
  swept: { emoji: '🧹', title: 'Agent pull requests swept' }
}

/** The heading of a stage, e.g. `✅ Mintlify agent job completed`. */
export function headingOf(stage: Stage): string {
  const { emoji, title } = STAGE_WORDING[stage]
  return `${emoji} ${title}`
}

/**
 * The endings `fail-on` may name: the job's, a quota reached, the preview's failed build, and a docs pull request that
 * touched a file outside `docs-paths`, and one that adds code names found nowhere in the code.
 */
export const FAILABLE_OUTCOMES = [
  ...TERMINAL_STATUSES,
  'timeout',
  'rate-limited',
  'preview-failed',
  'guardrail',
  'ungrounded'
] as const
export type FailableOutcome = (typeof FAILABLE_OUTCOMES)[number]
