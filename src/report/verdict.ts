// What is said about how the step ended, on one line for the log, the summary and the comment, and whether that fails
// the step, given `fail-on`.
import type { FaultKind } from '../admin-api/job-answers.ts'
import type { Settings } from '../inputs/settings.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted.ts'
import type { WaitResult, WaitStats } from '../wait/job-wait.ts'
import type { PreviewOutcome } from '../wait/preview.ts'
import { type Grounding, groundingSentence } from './grounding-report.ts'

/**
 * How the step ended: the wait's result, `started` when it did not wait (`wait: false`), or why no job was waited for
 * (`skipped`: nothing worth one; `rate-limited`: no job left to spend).
 */
export type StepResult =
  | WaitResult
  | (WaitStats & { readonly kind: 'started' })
  | (WaitStats & { readonly kind: 'skipped' | 'rate-limited'; readonly reason: string })

/** With `docs-paths`: whether the agent's pull request touched only the files it may touch. */
export type Guardrail =
  | { readonly kind: 'passed' }
  | { readonly kind: 'violated'; readonly files: readonly string[] }
  /** It could not be checked: the reason says why (no pull request, its files unreadable). */
  | { readonly kind: 'unchecked'; readonly reason: string }

/** The files a message names at most. */
const FILES_NAMED = 10

/** `docs/a.mdx, src/b.ts and 3 more`. */
export function namedFiles(files: readonly string[]): string {
  const shown = files.slice(0, FILES_NAMED).map((file) => forLog(file, 120))
  return files.length > FILES_NAMED ? `${shown.join(', ')} and ${files.length - FILES_NAMED} more` : shown.join(', ')
}

/**
 * A job completed without a pull request did not always change nothing: on Mintlify-hosted deployments, or with "push
 * to main", the agent commits straight to the deploy branch.
 */
export const NO_PULL_REQUEST =
  "opened no pull request (it changed nothing, or published directly, as the project's agent settings decide)"

export interface Verdict {
  /** One line for the log, the summary and the comment. */
  readonly message: string
  /** Whether the step fails. */
  readonly fails: boolean
}

/** Says what happened to the job and its preview, and whether that fails the step, given `fail-on`. */
export function verdictOf(
  result: StepResult,
  settings: Settings,
  jobId: string | undefined,
  extras: {
    readonly preview?: PreviewOutcome | undefined
    readonly guardrail?: Guardrail | undefined
    readonly grounding?: Grounding | undefined
  } = {}
): Verdict {
  const { preview, guardrail, grounding } = extras
  const checked = jobVerdict(result, settings, jobId)
  const job = {
    message: `${checked.message}${groundingSentence(grounding)}`,
    fails: checked.fails || (grounding?.kind === 'ungrounded' && settings.failOn.has('ungrounded'))
  }
  const withPreview =
    preview === undefined
      ? job
      : {
          message: `${job.message} ${previewSentence(preview)}`,
          fails: job.fails || (preview.kind === 'failure' && settings.failOn.has('preview-failed'))
        }
  if (guardrail === undefined || guardrail.kind === 'passed') return withPreview
  if (guardrail.kind === 'unchecked') {
    return { ...withPreview, message: `${withPreview.message} docs-paths was not checked: ${guardrail.reason}.` }
  }
  return {
    message: `${withPreview.message} Its pull request touched files outside docs-paths: ${namedFiles(guardrail.files)}.`,
    fails: withPreview.fails || settings.failOn.has('guardrail')
  }
}

/** What became of the preview, after the job's own sentence. */
function previewSentence(preview: PreviewOutcome): string {
  const at = (url: string | undefined) => (url === undefined ? '' : `: ${url}`)
  switch (preview.kind) {
    case 'success':
      return `Its preview is built${at(preview.url)}.`
    case 'failure': {
      const why = preview.build.summary ? ` (${forLog(preview.build.summary, 300)})` : ''
      return `Its preview failed to build${why}${at(preview.url)}.`
    }
    case 'building':
      return `Its preview was not built yet: ${preview.reason}${at(preview.url)}.`
    case 'unavailable':
    case 'error':
      return `No preview: ${preview.reason}.`
  }
}

function jobVerdict(result: StepResult, settings: Settings, jobId: string | undefined): Verdict {
  const job = `agent job "${forLog(jobId ?? '')}"`
  const Job = `A${job.slice(1)}`
  const after = `after ${formatDuration(result.elapsedMs)} (${result.polls} ${result.polls === 1 ? 'poll' : 'polls'})`
  switch (result.kind) {
    case 'started':
      return {
        message: `${Job} is ${forLog(result.job?.status ?? 'active')}; not waiting for it (wait: false).`,
        fails: false
      }
    case 'completed': {
      const pr = result.job?.pr
      const what = pr?.kind === 'link' ? `opened ${pr.url.href}` : NO_PULL_REQUEST
      return { message: `${Job} completed ${after}: the agent ${what}.`, fails: settings.failOn.has('completed') }
    }
    case 'failed':
      return {
        message: `${Job} failed ${after}: the agent hit an unrecoverable error. Open the job on the Mintlify dashboard to see why.`,
        fails: settings.failOn.has('failed')
      }
    case 'archived':
      return { message: `${Job} was archived ${after}.`, fails: settings.failOn.has('archived') }
    case 'timeout':
      return timeoutVerdict(result, settings, { Job, after })
    case 'error':
      return { message: result.reason, fails: true }
    case 'skipped':
      // A sweep starts no job by design: its reason is the whole story.
      if (settings.mode === 'sweep') return { message: `${result.reason}.`, fails: false }
      return { message: `Skipped: ${result.reason}. No agent job was started.`, fails: false }
    case 'rate-limited':
      return { message: result.reason, fails: settings.failOn.has('rate-limited') }
    case 'cancelled':
      return {
        message: result.reason ?? `Cancelled while waiting for ${job} ${after}; the job itself goes on.`,
        fails: true
      }
  }
}

/** What to do when the job could never be read, by the kind of the fault that kept recurring. */
const ADVICE_WHEN_NEVER_READ: Readonly<Record<FaultKind, string>> = {
  network: 'Check that base-url is reachable from this runner (and the proxy settings), or raise timeout.',
  server: 'The API kept failing, and may be having an outage: run the step again later, or raise timeout.',
  'rate limited':
    'The API kept asking the action to slow down (steps that share a key share its limits): run fewer at once, or raise timeout.',
  'not a job':
    "Every answer was a success that held no agent job: check that base-url is the Mintlify admin API's root (https://api.mintlify.com), not another service's address.",
  'not found':
    'The job the API had just accepted never became readable. It may still be running: look for it on the Mintlify dashboard.'
}

function timeoutVerdict(
  result: StepResult & { kind: 'timeout' },
  settings: Settings,
  words: { readonly Job: string; readonly after: string }
): Verdict {
  const limit = `the timeout of ${formatDuration(settings.timeoutMs)}`
  if (result.job === undefined) {
    const advice = ADVICE_WHEN_NEVER_READ[result.lastFaultKind ?? 'network']
    return {
      message: `${words.Job} could not be read within ${limit}: ${result.lastFault ?? 'every poll failed'} (${result.polls} attempts). ${advice}`,
      fails: true
    }
  }
  const status = forLog(result.job.status)
  const fault = result.lastFault ? ` The last ${result.consecutiveFaults} polls failed: ${result.lastFault}.` : ''
  const unknown = result.job.knownStatus
    ? ''
    : ` The API reported a status this action does not know ("${status}"), so it kept waiting for completed, archived or failed.`
  return {
    message: `${words.Job} was still ${status} when ${limit} ran out ${words.after}.${fault}${unknown} Raise timeout to wait longer; the job itself goes on.`,
    fails: settings.failOn.has('timeout')
  }
}
