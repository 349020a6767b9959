// The step, once its inputs are read: set up (the clock and deadline, the admin API, GitHub when it is used), decide
// the job (starting it or sending a follow-up when asked), follow it (wait, then build its preview), and report the
// outcome through the outputs, the summary, the log and the tracking comment.
import { createAdminApi } from './admin-api/client.ts'
import type { Decision, StepSetup } from './decide/decision.ts'
import { chooseJob } from './decide/choose.ts'
import type { OpenedGitHub } from './github/open.ts'
import { type Settings, usesIssue } from './inputs/settings.ts'
import type { RunnerEnvironment } from './runner/environment.ts'
import type { RunnerIo } from './runner/io.ts'
import { logPreview, logProgress, type Report, reporter, startLine, waitingLine } from './report/report.ts'
import type { SummaryFacts } from './report/summary.ts'
import { TrackingComment } from './report/tracking-comment.ts'
import type { Transport } from './transport/transport.ts'
import type { Redact } from './text/redact.ts'
import { errorMessage, forLog } from './text/untrusted.ts'
import { waitForJob, type WaitResult } from './wait/job-wait.ts'
import { buildPreview, type PreviewOutcome, previewPlan } from './wait/preview.ts'
import { FOLLOW_UP_SETTLE_MS, GITHUB_DEADLINE_MS, NOT_FOUND_GRACE_MS, stepClock } from './wait/retry.ts'

/** What main.ts hands the step: how to reach the outside, what the runner said, and how to talk back to it. */
export interface Outside {
  readonly transport: Transport
  readonly environment: RunnerEnvironment
  readonly runner: RunnerIo
}

export async function runStep(settings: Settings, outside: Outside): Promise<void> {
  const setup = await setUpStep(settings, outside)
  const decision = await chooseJob(setup)
  const report = reporter(settings, outside.runner, summaryFacts(settings, decision, outside.transport.redact))
  if (decision.kind === 'job') {
    await followJob(decision, setup, outside.runner, report)
    return
  }
  // The comment, if a request was recorded on it, says why nothing is waited for; a request that may have reached the
  // API stays recorded there, so that a re-run does not send it again.
  const elapsedMs = setup.clock.now() - setup.startedAt
  const { kind, reason } = decision
  const nothingSent = decision.nothingSent === true
  const result = {
    polls: 0,
    faults: 0,
    elapsedMs,
    job: undefined,
    kind,
    reason,
    ...(nothingSent ? { nothingSent } : {})
  }
  await report(result, decision.comment)
}

async function setUpStep(settings: Settings, outside: Outside): Promise<StepSetup> {
  const { transport, environment, runner } = outside
  const clock = stepClock(transport.cancelSignal)
  const startedAt = clock.now()
  const api = createAdminApi(settings, transport, environment.serverUrl)
  const opened = usesIssue(settings.githubUse) ? await loadGitHub(settings, outside) : undefined
  if (opened?.kind === 'unavailable' && settings.githubUse.comment)
    runner.log.warning(`No comment will be made: ${opened.reason}.`)
  runner.log.info(startLine(settings))
  const github = opened?.kind === 'ready' ? opened.github : undefined
  const commentRunner = {
    outputs: runner.outputs,
    log: runner.log,
    date: clock.date,
    now: clock.now,
    cancelled: clock.cancelled,
    whenCancelled: clock.whenCancelled
  }
  return {
    settings,
    clock,
    startedAt,
    deadline: startedAt + settings.timeoutMs,
    api,
    github,
    githubUnavailable: opened?.kind === 'unavailable' ? opened.reason : undefined,
    runId: environment.runId,
    step: environment.step,
    log: runner.log,
    redact: transport.redact,
    openComment: (start) =>
      settings.githubUse.comment && github ? new TrackingComment(github, commentRunner, start) : undefined,
    compose: (prompt) => composePrompt(prompt, settings, outside)
  }
}

/** Octokit and the event context load in a chunk of their own, only for the runs that use GitHub. Never throws. */
async function loadGitHub(settings: Settings, outside: Outside): Promise<OpenedGitHub> {
  const { transport, environment, runner } = outside
  try {
    const { openGitHub } = await import('./github/open.ts')
    return openGitHub(settings, transport, environment.repository, runner.log)
  } catch (error) {
    const reason = forLog(transport.redact(errorMessage(error)), 300)
    return { kind: 'unavailable', reason: `GitHub could not be set up (${reason})` }
  }
}

/**
 * The prompt as it is sent (see prompt/compose.ts), loaded in a chunk of its own. On any failure the prompt goes as
 * given, with a warning in our own words: an error here is the action's own, and its message could quote GitHub.
 */
async function composePrompt(prompt: string, settings: Settings, outside: Outside): Promise<string> {
  if (settings.context !== 'auto') return prompt
  const { transport, environment, runner } = outside
  try {
    const compose = await import('./prompt/compose.ts')
    const where = { transport, repository: environment.repository, deadlineMs: GITHUB_DEADLINE_MS, log: runner.log }
    return await compose.composePrompt(prompt, settings, where)
  } catch {
    runner.log.warning(
      'context: auto adds nothing: the section could not be built (an error in the action); the prompt is sent as given.'
    )
    return prompt
  }
}

/** Once the job is known: say so (the job-id output, the comment), wait for it unless told not to, and report. */
async function followJob(
  decision: Decision & { kind: 'job' },
  setup: StepSetup,
  runner: RunnerIo,
  report: Report
): Promise<void> {
  const { clock, settings } = setup
  const { comment } = decision
  runner.outputs.set('job-id', decision.jobId)
  comment?.show({ kind: settings.wait ? 'active' : 'started' })
  if (!settings.wait) {
    const elapsedMs = clock.now() - setup.startedAt
    await report({ polls: 0, faults: 0, elapsedMs, job: decision.job, kind: 'started' }, comment)
    return
  }
  runner.log.info(waitingLine(decision.jobId))
  const result = await waitForJob({
    settings,
    fetchJob: (timeoutMs) => setup.api.getJob(decision.jobId, timeoutMs),
    clock,
    startedAt: setup.startedAt,
    deadline: setup.deadline,
    onEvent: logProgress(runner.log),
    known: decision.job,
    settleMs: decision.followedUp ? FOLLOW_UP_SETTLE_MS : undefined,
    notFoundGraceMs: decision.sent ? NOT_FOUND_GRACE_MS : undefined
  })
  const preview = settings.preview ? await previewPhase(result, setup, runner, comment) : undefined
  await report(result, comment, preview)
}

/** With `preview: true`: the preview of the agent's branch, told to the outputs, the log and the comment as it goes. */
async function previewPhase(
  result: WaitResult,
  setup: StepSetup,
  runner: RunnerIo,
  comment: TrackingComment | undefined
): Promise<PreviewOutcome> {
  const { settings } = setup
  const plan = previewPlan(result.kind, result.job)
  if (plan.kind === 'none') {
    runner.log.info(`No preview: ${plan.reason}.`)
    return { kind: 'unavailable', reason: plan.reason }
  }
  const outcome = await buildPreview(plan.branch, settings, {
    api: setup.api,
    deadline: setup.deadline,
    clock: setup.clock,
    log: (message) => {
      runner.log.info(message)
    },
    building: (url) => {
      if (url !== undefined) runner.outputs.set('preview-url', url)
      const preview = { kind: 'building', reason: 'it is building', url } as const
      comment?.show({ kind: 'ended', result, message: '', timeoutMs: settings.timeoutMs, preview })
    }
  })
  logPreview(outcome, runner.log)
  return outcome
}

/** The job and the prompt (redacted: it may quote the key), for the summary: the request made, or the one tried. */
function summaryFacts(settings: Settings, decision: Decision, redact: Redact): SummaryFacts {
  const sentKind =
    decision.kind === 'job' ? decision.request?.kind : settings.jobId === undefined ? 'start' : 'follow-up'
  return {
    projectId: settings.projectId,
    jobId: decision.jobId,
    sent:
      settings.prompt === undefined || sentKind === undefined
        ? undefined
        : { kind: sentKind === 'start' ? 'prompt' : 'follow-up', prompt: redact(settings.prompt) }
  }
}
