// What the step tells as it goes and when it ends: its first lines, the progress of the wait and the preview in the
// log, then the outputs first (a later step may need them even when this one fails), the summary, the tracking
// comment, and the verdict.
import type { Settings } from '../inputs/settings.ts'
import type { Cancel } from '../runner/environment.ts'
import type { Logger, Outputs, ResultKey, RunnerIo } from '../runner/io.ts'
import { formatDuration } from '../text/duration.ts'
import { type CheckedUrl, droppedBecause, forLog } from '../text/untrusted.ts'
import type { PollEvent } from '../wait/job-wait.ts'
import type { PreviewOutcome } from '../wait/preview.ts'
import { faultLog, LAST_WORDS_MS } from '../wait/retry.ts'
import { lastLogLines, type StepFacts, summaryOf } from './summary.ts'
import type { TrackingComment } from './tracking-comment.ts'
import type { CheckRun } from './check-run.ts'
import { type Guardrail, type StepResult, verdictOf } from './verdict.ts'
import { type Grounding, groundingOutputs } from './grounding-report.ts'

/** The step's first line: where the API is, which project, and how long and how often it waits. */
export function startLine(settings: Settings): string {
  const { timeoutMs, pollIntervalMs, maxPollIntervalMs } = settings
  if (settings.mode === 'sweep') {
    // A sweep waits on no job: the API is used only for a follow-up to a conflicted pull request's job.
    const docs = settings.sweep.repository ?? "the workflow's repository"
    return `mode: sweep of ${docs}, project "${forLog(settings.projectId)}" (follow-ups through the Mintlify admin API at ${settings.baseUrl.href})`
  }
  return (
    `Mintlify admin API at ${settings.baseUrl.href}, project "${forLog(settings.projectId)}" (timeout ${formatDuration(timeoutMs)}, ` +
    `polling every ${formatDuration(pollIntervalMs)} growing to ${formatDuration(maxPollIntervalMs)})`
  )
}

/** The line before the wait. */
export function waitingLine(jobId: string): string {
  return `Waiting for agent job "${forLog(jobId)}".`
}

/**
 * Turns the wait's events into a quiet log: one line per status change, a heartbeat while the job stays active, one
 * line per new fault (its repeats counted: see faultLog); each poll in detail only under debug. Every line starts with
 * our own words. `now` is the step's clock.
 */
export function logProgress(logger: Logger, now: () => number): ProgressLog {
  const unknownStatuses = new Set<string>()
  const faults = faultLog((line) => {
    logger.info(line)
  }, now)
  const tell = (event: PollEvent): void => {
    switch (event.kind) {
      case 'poll': {
        const { result } = event
        if (result.kind === 'job') faults.end()
        const what =
          result.kind === 'job'
            ? `status ${forLog(result.job.status)}`
            : result.kind === 'cancelled'
              ? 'cancelled'
              : forLog(result.reason)
        const ignored =
          result.kind === 'job' && result.job.ignored.length > 0
            ? `; left out ${result.job.ignored.map((field) => forLog(field, 80)).join(', ')}: not the type the API documents`
            : ''
        logger.debug(`Poll ${event.poll}: ${what} (${Math.round(event.tookMs)}ms)${ignored}`)
        return
      }
      case 'status': {
        const prText = event.job.pr.kind === 'link' ? `; pull request ${event.job.pr.url.href}` : ''
        const change =
          event.previous === undefined
            ? ''
            : ` (was ${forLog(event.previous)}, after ${formatDuration(event.elapsedMs)})`
        logger.info(`Job status: ${forLog(event.job.status)}${change}${prText}`)
        if (!event.job.knownStatus && !unknownStatuses.has(event.job.status)) {
          unknownStatuses.add(event.job.status)
          logger.warning(
            `The API reported the status "${forLog(event.job.status)}", which this action does not know: it keeps polling until the job is completed, archived or failed.`
          )
        }
        return
      }
      case 'heartbeat':
        logger.info(`Still ${forLog(event.job.status)} after ${formatDuration(event.elapsedMs)} (${event.polls} polls)`)
        return
      case 'fault': {
        const reason = forLog(event.reason)
        faults.fault(
          reason,
          `Poll failed: ${reason}; retrying in ${formatDuration(event.retryInMs)} (${event.consecutive} in a row)`
        )
        return
      }
    }
  }
  return { tell, end: faults.end }
}

/** The wait's log: `tell` each of its events, `end` once it is over (the count of a fault's repeats not told yet). */
export interface ProgressLog {
  readonly tell: (event: PollEvent) => void
  readonly end: () => void
}

/** How the preview ended, in the log: its address, or why it failed (with its build's last lines), or why there is none. */
export function logPreview(outcome: PreviewOutcome, log: Logger): void {
  switch (outcome.kind) {
    case 'success':
      log.info(`The preview is built: ${outcome.url ?? '(no address given)'}`)
      return
    case 'failure': {
      const lines = lastLogLines(outcome.build.logs).map((line) => `  | ${forLog(line, 300)}`)
      const summary = forLog(outcome.build.summary ?? 'no summary given', 500)
      log.info([`The preview failed to build: ${summary}. The last lines of its log:`, ...lines].join('\n'))
      return
    }
    case 'building':
      log.warning(
        `The preview was not built yet: ${outcome.reason}. It will be at ${outcome.url ?? '(no address given)'}.`
      )
      return
    case 'unavailable':
    case 'error':
      log.warning(`No preview: ${outcome.reason}.`)
  }
}

/** What came after the job's own end: its preview's build, and whether its pull request kept to docs-paths. */
export interface Ending {
  readonly preview?: PreviewOutcome | undefined
  readonly guardrail?: Guardrail | undefined
  /** Whether the code names its pull request adds are found in the code. */
  readonly grounding?: Grounding | undefined
}

export type Report = (result: StepResult, comment: TrackingComment | undefined, ending?: Ending) => Promise<void>

/**
 * The step's report. `lastCall` resolves when the step's time after a cancel is nearly gone (a SIGTERM brings it
 * near): what GitHub has not done of the comment's and the check's last edits by then is left undone.
 */
export function reporter(
  settings: Settings,
  runner: RunnerIo,
  facts: StepFacts,
  check: CheckRun | undefined,
  lastCall: Cancel['lastCall']
): Report {
  return async (result, comment, ending = {}) => {
    const { timeoutMs } = settings
    // With preview: true, a step that never reached a completed job has nothing to preview.
    const preview = settings.preview ? (ending.preview ?? noPreview(result)) : undefined
    const { guardrail, grounding } = ending
    const verdict = verdictOf(result, settings, facts.jobId, { preview, guardrail, grounding })
    runner.outputs.setAll(stepOutputs(result, facts, { preview, guardrail, grounding }))
    warnOfDroppedUrls(result, runner.log)
    const commentFacts = comment && { problem: comment.problem(), protectsReruns: comment.protectsReruns() }
    await runner.writeSummary(
      summaryOf(result, { ...facts, comment: commentFacts, preview, guardrail, grounding }, verdict)
    )
    const view = { kind: 'ended', result, message: verdict.message, timeoutMs, preview, guardrail, grounding } as const
    const ended = result.kind === 'started' ? comment?.settle() : comment?.end(view)
    const edits = Promise.all([ended, check?.end(result, verdict, comment?.text(view) ?? verdict.message)])
    await Promise.race([edits, lastCall(LAST_WORDS_MS)])
    if (verdict.fails) runner.fail(verdict.message)
    else if (result.kind === 'rate-limited') runner.log.warning(verdict.message)
    else runner.log.info(verdict.message)
  }
}

/** The URLs from the API that were not passed on (prLink, source.repository), each with why. */
function warnOfDroppedUrls(result: StepResult, log: Logger): void {
  // A URL that carries a user name or password is not quoted: they may be someone's credentials.
  const quoted = (text: string, checked: CheckedUrl & { kind: 'dropped' }) =>
    checked.why === 'with a user name or password' ? '' : ` ("${forLog(text, 80)}")`
  const pr = result.job?.pr
  if (pr?.kind === 'dropped') {
    log.warning(`The API returned a prLink${quoted(pr.text, pr.why)} that was dropped: ${droppedBecause(pr.why)}.`)
  }
  const repository = result.job?.repositoryUrl
  if (repository?.kind === 'dropped') {
    log.warning(
      `The API returned a docs repository${quoted(result.job?.repository ?? '', repository)} that is not passed on as docs-repository: ${droppedBecause(repository)}.`
    )
  }
}

function noPreview(result: StepResult): PreviewOutcome {
  const reason =
    result.kind === 'started' ? 'the step does not wait for the job (wait: false)' : `the step ended ${result.kind}`
  return { kind: 'unavailable', reason }
}

/** Every output the step's ending sets, `result` among them: all of them in one JSON object. */
export function stepOutputs(result: StepResult, facts: StepFacts, ending: Ending): Outputs {
  const { guardrail } = ending
  const grounding = groundingOutputs(ending.grounding)
  const outputs: Outputs = {
    ...resultOutputs(result),
    ...previewOutputs(ending.preview),
    'skip-reason': result.kind === 'skipped' && facts.sweep === undefined ? result.reason : '',
    'action-taken': facts.actionTaken,
    'requested-by': facts.requestedBy ?? '',
    guardrail: guardrail === undefined || guardrail.kind === 'unchecked' ? '' : guardrail.kind,
    ...grounding.outputs,
    ...batchOutputs(facts),
    ...(facts.sweep ? { sweep: facts.sweep.output } : {})
  }
  const text = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value)
  const number = (value: string | undefined): number | null => (text(value) === null ? null : Number(value))
  const summary: Record<ResultKey, unknown> = {
    outcome: result.kind,
    status: text(outputs.status),
    'job-id': text(facts.jobId ?? result.job?.id),
    prLink: text(outputs.prLink),
    'pr-number': number(outputs['pr-number']),
    'pr-repository': text(outputs['pr-repository']),
    branch: text(outputs.branch),
    'preview-url': text(outputs['preview-url']),
    'preview-status': text(outputs['preview-status']),
    'skip-reason': text(outputs['skip-reason']),
    'action-taken': text(facts.actionTaken),
    'requested-by': text(outputs['requested-by']),
    'batch-size': number(outputs['batch-size']),
    'batch-prs': facts.batch === undefined ? null : facts.batch.included.map((pull) => pull.number),
    guardrail: text(outputs.guardrail),
    grounding: text(outputs.grounding),
    ungrounded: grounding.ungrounded,
    'duration-s': Math.round(result.elapsedMs / 1000),
    'jobs-started': facts.jobsStarted,
    sweep: facts.sweep ? (JSON.parse(facts.sweep.output) as unknown) : null
  }
  return { ...outputs, result: JSON.stringify(summary) }
}

const STATUS_WORD = /^[a-z][a-z0-9_-]{0,39}$/

/**
 * The outputs about the job: `status` (the last status the API returned; empty when it never answered), `outcome`,
 * `prLink`, `pr-number`, `pr-repository`, and `job` (the last job as JSON).
 */
export function resultOutputs(result: StepResult): Outputs {
  const pr = result.job?.pr
  const link = pr?.kind === 'link' ? pr : undefined
  const status = result.job?.status ?? ''
  return {
    // A status the contract does not list is shown in the log; an output a script may paste takes only a word.
    status: STATUS_WORD.test(status) ? status : '',
    outcome: result.kind,
    prLink: link?.url.href ?? '',
    'pr-number': link?.pullRequest ? String(link.pullRequest.number) : '',
    'pr-repository': link?.pullRequest?.repository ?? '',
    job: result.job ? JSON.stringify(result.job.body) : '',
    branch: result.job?.ref ?? '',
    'docs-repository': result.job?.repositoryUrl?.kind === 'url' ? result.job.repositoryUrl.url.href : ''
  }
}

/** With `mode: batch`: what the batch covers. */
function batchOutputs(facts: StepFacts): Outputs {
  const { batch } = facts
  if (batch === undefined) return {}
  return {
    'batch-size': String(batch.included.length),
    'batch-prs': JSON.stringify(batch.included.map((pull) => pull.number)),
    'batch-from': batch.window.from,
    'batch-to': batch.window.to
  }
}

/** `preview-status`, and `preview-url` when the preview has one. */
function previewOutputs(preview: PreviewOutcome | undefined): Outputs {
  if (preview === undefined) return {}
  const url = 'url' in preview ? preview.url : undefined
  return { 'preview-status': preview.kind, ...(url === undefined ? {} : { 'preview-url': url }) }
}
