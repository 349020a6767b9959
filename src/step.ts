// The step, once its inputs are read: set up, decide what to do with this event (a job to start, follow up or wait
// for, or none, as the mode and the gates say), follow the job (wait, build its preview, hold its pull request to
// docs-paths), and report the outcome through the outputs, the summary, the log, the tracking comment and the check.
import type { AgentJob } from './admin-api/agent-job.ts'
import { decideSingle } from './modes/single/single.ts'
import type { Decision, StepSetup } from './decide/decision.ts'
import { checkGuardrail } from './after-job/guardrail.ts'
import { decidePair } from './modes/pair/pair.ts'
import { closeSuperseded, type Paired } from './modes/pair/docs-pull.ts'
import { decideBatch, notifyCovered } from './modes/batch/batch.ts'
import { decideSweep, type Swept } from './modes/sweep/sweep.ts'
import { answerRequest, decideRequest, type HandledRequest, keepsCheck, unaskedOf } from './modes/requests/requests.ts'
import type { BatchPlan } from './github/tracking-record.ts'
import type { Settings } from './inputs/settings.ts'
import type { RunnerIo } from './runner/io.ts'
import type { Redact } from './text/redact.ts'
import type { CheckRun } from './report/check-run.ts'
import { logPreview, logProgress, type Report, reporter, waitingLine } from './report/report.ts'
import type { StepFacts } from './report/summary.ts'
import type { TrackingComment } from './report/tracking-comment.ts'
import { openCheck, type Outside, setUpStep } from './setup.ts'
import { waitForJob, type WaitResult } from './wait/job-wait.ts'
import { buildPreview, type PreviewOutcome, previewPlan } from './wait/preview.ts'
import { FOLLOW_UP_SETTLE_MS, NOT_FOUND_GRACE_MS } from './wait/retry.ts'

export type { Outside } from './setup.ts'

export async function runStep(settings: Settings, outside: Outside): Promise<void> {
  const setup = await setUpStep(settings, outside)
  const event = { name: outside.environment.eventName, action: setup.desk?.action }
  const asked = unaskedOf(setup, event)
  const decided: Decided = asked === undefined ? await decide(setup) : { mode: 'requests', decision: asked }
  const { decision } = decided
  const checked = settings.check !== undefined && asked === undefined && keepsCheck(setup.desk?.read, decision)
  const check = checked ? await openCheck(setup, outside.environment, outside.runner) : undefined
  const facts = stepFacts(settings, decided, setup.redact)
  const report = reporter(settings, outside.runner, facts, check, outside.cancel.lastCall)
  if (decision.kind === 'job') {
    await followJob(decision, decided, setup, outside.runner, report, check)
    return
  }
  // The comment, if a request was recorded on it, says why nothing is waited for; a request that may have reached the
  // API stays recorded there, so that a re-run does not send it again.
  const elapsedMs = setup.clock.now() - setup.startedAt
  const job = decision.kind === 'skipped' ? decision.job : undefined
  // The job a status request read: the output names it, as `result` does.
  if (decision.kind === 'skipped' && decision.jobId !== undefined) outside.runner.outputs.set('job-id', decision.jobId)
  const nothingSent = decision.kind === 'cancelled' && decision.nothingSent === true
  const result = {
    polls: 0,
    faults: 0,
    elapsedMs,
    job,
    kind: decision.kind,
    reason: decision.reason,
    ...(nothingSent ? { nothingSent } : {})
  }
  await report(result, decision.comment)
}

/** How this run decided, with what its mode alone knows (a typed extra of its own). */
type Decided =
  | { readonly mode: 'single'; readonly decision: Decision }
  | { readonly mode: 'pair'; readonly decision: Decision<Paired> }
  | { readonly mode: 'batch'; readonly decision: Decision<BatchPlan> }
  | { readonly mode: 'requests'; readonly decision: Decision<HandledRequest> }
  | { readonly mode: 'sweep'; readonly decision: Decision<Swept> }

/** What to do with this event, as the mode says; the gates first, wherever a prompt would be sent. */
async function decide(setup: StepSetup): Promise<Decided> {
  const { desk, settings } = setup
  if (desk?.read) return { mode: 'requests', decision: await decideRequest(setup, desk, desk.read) }
  switch (settings.mode) {
    case 'single':
      return { mode: 'single', decision: await decideSingle(setup) }
    case 'pair':
      return { mode: 'pair', decision: await decidePair(setup) }
    case 'batch':
      return { mode: 'batch', decision: await decideBatch(setup) }
    case 'sweep':
      return { mode: 'sweep', decision: await decideSweep(setup) }
  }
}

/** Once the job has ended: the mode's own work, nothing else's. */
async function afterJob(decided: Decided, setup: StepSetup, result: WaitResult): Promise<void> {
  switch (decided.mode) {
    case 'single':
      return
    case 'pair':
      if (decided.decision.kind === 'job') await closeSuperseded(setup, decided.decision, result)
      return
    case 'batch':
      if (decided.decision.kind === 'job') await notifyCovered(setup, decided.decision, result)
      return
    case 'requests':
      return answerRequest(setup, decided.decision, result)
    case 'sweep':
      return
  }
}

/** Once the job is known: say so (the job-id output, the comment, the check), wait unless told not to, and report. */
async function followJob(
  decision: Decision<unknown> & { kind: 'job' },
  decided: Decided,
  setup: StepSetup,
  runner: RunnerIo,
  report: Report,
  check: CheckRun | undefined
): Promise<void> {
  const { clock, settings } = setup
  const { comment } = decision
  runner.outputs.set('job-id', decision.jobId)
  const view = { kind: settings.wait ? 'active' : 'started' } as const
  comment?.show(view)
  check?.start(comment?.text(view) ?? `Agent job "${decision.jobId}" is running.`)
  if (!settings.wait) {
    const elapsedMs = clock.now() - setup.startedAt
    await report({ polls: 0, faults: 0, elapsedMs, job: decision.job, kind: 'started' }, comment)
    return
  }
  const waitAgain = () => waitFor({ ...decision, job: undefined, followedUp: true, sent: true }, setup, runner)
  const waited = await waitFor(decision, setup, runner)
  // The check's code (and node-tar) is loaded only by a run that checks.
  const grounded =
    settings.grounding.mode === 'off'
      ? { result: waited, grounding: undefined }
      : await (await import('./after-job/grounding-rounds.ts')).groundJob(setup, { ...decision, waitAgain }, waited)
  const { result, grounding } = grounded
  const guardrail = await checkGuardrail(setup, result)
  await afterJob(decided, setup, result)
  const preview = settings.preview ? await previewPhase(result, setup, runner, comment) : undefined
  await report(result, comment, { preview, guardrail, grounding })
}

/** Waits for the job to end, telling its progress to the log and its branch and repository to the outputs. */
async function waitFor(
  decision: Pick<Decision & { kind: 'job' }, 'jobId' | 'job' | 'followedUp' | 'sent'>,
  setup: StepSetup,
  runner: RunnerIo
): Promise<WaitResult> {
  const { clock, settings } = setup
  runner.log.info(waitingLine(decision.jobId))
  const logged = logProgress(runner.log, clock.now)
  const result = await waitForJob({
    settings,
    fetchJob: (timeoutMs) => setup.api.getJob(decision.jobId, timeoutMs),
    clock,
    startedAt: setup.startedAt,
    deadline: setup.deadline,
    onEvent: (event) => {
      logged.tell(event)
      if (event.kind === 'status') setWhereOutputs(event.job, runner)
    },
    known: decision.job,
    settleMs: decision.followedUp ? FOLLOW_UP_SETTLE_MS : undefined,
    notFoundGraceMs: decision.sent ? NOT_FOUND_GRACE_MS : undefined
  })
  logged.end()
  return result
}

/** `branch` and `docs-repository` as soon as a poll gives them: a later step may need them even if this one is cancelled. */
function setWhereOutputs(job: AgentJob, runner: RunnerIo): void {
  if (job.ref) runner.outputs.set('branch', job.ref)
  if (job.repository) runner.outputs.set('docs-repository', job.repository)
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

/**
 * The job and the prompt (redacted: it may quote the key), for the summary and the outputs: the request made, or the
 * one that was tried.
 */
function stepFacts(settings: Settings, decided: Decided, redact: Redact): StepFacts {
  const { decision } = decided
  const tried = settings.jobId === undefined ? 'start' : 'follow-up'
  const sentKind = decision.kind === 'job' ? decision.submission?.kind : decision.kind === 'skipped' ? undefined : tried
  const made = decision.kind === 'job' && decision.sent ? decision.submission?.kind : undefined
  const ended = decided.mode === 'pair' && decision.kind === 'skipped' ? decided.decision.extra?.told : undefined
  const asked = decided.mode === 'requests' ? decided.decision.extra : undefined
  const swept = decided.mode === 'sweep' ? decided.decision.extra : undefined
  const taken = swept
    ? 'swept'
    : made === 'start'
      ? 'started'
      : made === 'follow-up'
        ? 'followed-up'
        : (ended ?? 'none')
  const prompt = asked?.prompt ?? settings.prompt
  return {
    projectId: settings.projectId,
    actionTaken: asked === undefined ? taken : made ? 'commanded' : asked.taken === 'commanded' ? 'none' : asked.taken,
    requestedBy: asked?.by,
    jobsStarted: made === 'start' ? 1 : 0,
    jobId: decision.jobId,
    batch: decided.mode === 'batch' ? decided.decision.extra : undefined,
    sweep: swept,
    sent:
      prompt === undefined || sentKind === undefined
        ? undefined
        : { kind: sentKind === 'start' ? 'prompt' : 'follow-up', prompt: redact(prompt) }
  }
}
