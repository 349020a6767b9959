// What is said about each outcome (one table for the log, the summary and the comment), and whether it fails the
// step.
import type { Settings } from '../runner/settings/settings.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { WaitResult, WaitStats } from './wait-for-job.ts'

/** How the step ended: the wait's result, or `started` when it did not wait (`wait: false`). */
export type StepResult = WaitResult | (WaitStats & { readonly kind: 'started' })
/** The step's `outcome`. */
type Outcome = StepResult['kind']
/** An outcome, or `active` while the job runs: what the summary and the tracking comment say. */
export type Stage = Outcome | 'active'

/** What the summary and the comment call each stage. */
export const OUTCOME_WORDING: Readonly<Record<Stage, { readonly emoji: string; readonly title: string }>> = {
  active: { emoji: '⏳', title: 'Mintlify agent job running' },
  started: { emoji: '🚀', title: 'Mintlify agent job started' },
  completed: { emoji: '✅', title: 'Mintlify agent job completed' },
  archived: { emoji: '🗄️', title: 'Mintlify agent job archived' },
  failed: { emoji: '❌', title: 'Mintlify agent job failed' },
  timeout: { emoji: '⏱️', title: 'Timed out waiting for the Mintlify agent job' },
  error: { emoji: '❌', title: 'The Mintlify agent step stopped on an error' },
  cancelled: { emoji: '⏹️', title: 'Run cancelled' }
}

/** The heading of a stage, e.g. `✅ Mintlify agent job completed`. */
export function headingOf(stage: Stage): string {
  const { emoji, title } = OUTCOME_WORDING[stage]
  return `${emoji} ${title}`
}

export interface Verdict {
  /** One line for the log, the summary and the comment. */
  readonly message: string
  /** Whether the step fails. */
  readonly fails: boolean
}

/** Says what happened and whether that fails the step, given `fail-on`. */
export function verdictOf(
  result: StepResult,
  settings: Pick<Settings, 'timeoutMs' | 'failOn'> & { readonly jobId: string | undefined }
): Verdict {
  const job = `Agent job "${forLog(settings.jobId ?? '')}"`
  const after = `after ${formatDuration(result.elapsedMs)} (${result.polls} ${result.polls === 1 ? 'poll' : 'polls'})`
  switch (result.kind) {
    case 'started':
      return {
        message: `${job} is ${forLog(result.job?.status ?? 'active')}; not waiting for it (wait: false).`,
        fails: false
      }
    case 'completed': {
      const pr = result.job?.pr
      const what = pr?.kind === 'link' ? `opened ${pr.url.href}` : 'changed no files, so no pull request was opened'
      return { message: `${job} completed ${after}: the agent ${what}.`, fails: settings.failOn.has('completed') }
    }
    case 'failed':
      return {
        message: `${job} failed ${after}: the agent hit an unrecoverable error. Open the job on the Mintlify dashboard to see why.`,
        fails: settings.failOn.has('failed')
      }
    case 'archived':
      return { message: `${job} was archived ${after}.`, fails: settings.failOn.has('archived') }
    case 'timeout': {
      const limit = `the timeout of ${formatDuration(settings.timeoutMs)}`
      if (result.job === undefined) {
        return {
          message: `${job} could not be read within ${limit}: ${result.lastFault ?? 'every poll failed'} (${result.polls} attempts). Check that base-url is reachable from this runner (and the proxy settings), or raise timeout.`,
          fails: true
        }
      }
      const fault = result.lastFault ? ` The last ${result.consecutiveFaults} polls failed: ${result.lastFault}.` : ''
      return {
        message: `${job} was still ${forLog(result.job.status)} when ${limit} ran out ${after}.${fault} Raise timeout to wait longer; the job itself goes on.`,
        fails: settings.failOn.has('timeout')
      }
    }
    case 'error':
      return { message: result.reason, fails: true }
    case 'cancelled':
      return {
        message: result.reason ?? `Cancelled while waiting for ${job} ${after}; the job itself goes on.`,
        fails: true
      }
  }
}
