// With `mode: batch`: one job for every pull request merged into the branch since the last batch whose job completed.
// The digest issue keeps the record, one tracking comment per batch: what it covered (the commits after the cursor up
// to its `to`, and the pull requests merged there), its job and the docs pull request. The cursor is the `to` of the
// latest batch whose job completed: a failed, timed-out or cancelled batch is taken again, whole, by the next run.
import type { AgentJob } from '../../admin-api/agent-job.ts'
import type { PollResult } from '../../admin-api/job-answers.ts'
import { httpStatusOf } from '../../github/fields.ts'
import { permissionHint } from '../../github/failure.ts'
import type { History } from '../../github/history.ts'
import type { GitHubReads } from '../../github/reads.ts'
import type { StoredComment } from '../../github/comment-store.ts'
import {
  type BatchPlan,
  type BatchWindow,
  type TrackingState,
  tracksProject,
  UNKNOWN_JOB
} from '../../github/tracking-record.ts'
import type { Settings } from '../../inputs/settings.ts'
import { composeBatch } from '../../prompt/compose.ts'
import type { Logger } from '../../runner/io.ts'
import type { Redact } from '../../text/redact.ts'
import { isTerminal, type TerminalStatus } from '../../text/outcome.ts'
import { errorMessage, forLog } from '../../text/untrusted.ts'
import type { WaitResult } from '../../wait/job-wait.ts'
import { GITHUB_DEADLINE_MS, requestBudget } from '../../wait/retry.ts'
import { readNextBatch, LEFT_OUT_BATCH } from './plan.ts'
import { earlierAttempt, readTracked, runRecord } from '../../decide/tracked.ts'
import type { Decision, Service, StepSetup } from '../../decide/decision.ts'
import { sendPrompt } from '../../decide/send.ts'

export async function decideBatch(setup: StepSetup): Promise<Decision<BatchPlan>> {
  const { history, settings } = setup
  if (history === undefined || setup.thread === undefined) {
    const why = setup.threadUnavailable ?? 'GitHub could not be set up'
    return {
      kind: 'error',
      reason: `mode: batch keeps its record on the digest issue, which could not be reached: ${why}.`
    }
  }
  const read = await readTracked(setup, true)
  if (read.kind !== 'read') return read
  const prompt = settings.prompt ?? ''
  const earlier = await earlierAttempt(setup, read.tracked, runRecord(setup), prompt)
  if (earlier) return earlier
  const batches = read.tracked.filter(
    (comment) => comment.state.batch && tracksProject(comment.state, settings.projectId)
  )
  const pending = await pendingBatch(setup, batches.at(-1))
  if (pending.kind !== 'none') return pending.decision
  try {
    return await nextBatch(
      setup,
      history,
      batches.map((comment) => pending.ended(comment)),
      batches.length
    )
  } catch (error) {
    if (setup.clock.cancelled()) return { kind: 'cancelled', reason: 'Cancelled before anything was sent.' }
    const why = forLog(setup.redact(errorMessage(error)), 300)
    return {
      kind: 'error',
      reason: `Could not read what was merged since the last batch (${why}). Nothing was sent; the next run tries again.`
    }
  }
}

type Pending =
  | { readonly kind: 'decided'; readonly decision: Decision<BatchPlan> }
  /** No batch is running; `ended` gives a record as it is now (its end noted when this run learned it). */
  | { readonly kind: 'none'; readonly ended: (comment: StoredComment) => TrackingState }

/**
 * The latest batch, when its record says no end: a run that ended while its job was still active (a timeout, a
 * cancel) left it so. Its job is read once: still running, this run waits for it instead of starting a second job for
 * the same pull requests; completed, this run ends as that batch (with `wait: false`, its end is noted and the cursor
 * moves on); failed or archived, its end is noted, and its pull requests are taken again.
 */
async function pendingBatch(setup: StepSetup, last: StoredComment | undefined): Promise<Pending> {
  const asIs: Pending = { kind: 'none', ended: (comment) => comment.state }
  if (last === undefined || last.state.ended !== undefined) return asIs
  const { state } = last
  if (state.job === UNKNOWN_JOB) {
    if (!state.requests.some((request) => request.unsure)) return asIs
    const reason =
      "The last batch on the digest issue tried to start an agent job, and could not tell whether it did. Nothing was sent, so that no pull request is documented twice: look on the Mintlify dashboard, then delete that batch's comment from the digest issue to let the next run take its pull requests again."
    return { kind: 'decided', decision: { kind: 'error', reason } }
  }
  const timeoutMs = requestBudget(setup.settings.requestTimeoutMs, setup.deadline, setup.clock.now())
  const read = judgePendingJob(state.job, await setup.api.getJob(state.job, timeoutMs), setup.settings.wait)
  switch (read.kind) {
    case 'error':
    case 'cancelled':
      return { kind: 'decided', decision: read }
    case 'follow':
      setup.log.info(read.note)
      return { kind: 'decided', decision: asThatBatch(setup, last, read.job) }
  }
  const { job } = read
  setup.log.info(`The batch before this one ended ${job.status} (agent job "${forLog(state.job, 80)}").`)
  const ended = { ...state, ended: job.status, ...(job.pr.kind === 'link' ? { pr: job.pr.url.href } : {}) }
  // The record says so now: the cursor moves on from a completed batch, once.
  const result = { kind: read.status, polls: 0, faults: 0, elapsedMs: 0, job }
  const note = setup.openComment({ state, commentId: last.id, find: false })
  await note?.end({ kind: 'ended', result, message: '', timeoutMs: setup.settings.timeoutMs })
  return { kind: 'none', ended: (comment) => (comment.id === last.id ? ended : comment.state) }
}

/** The batch of what was merged since the cursor, sent as one job; or why there is none. */
async function nextBatch(
  setup: StepSetup,
  history: Service<History>,
  records: readonly TrackingState[],
  batchesRead: number
): Promise<Decision<BatchPlan>> {
  const { settings } = setup
  const { branch, window, judged, coverage } = await readNextBatch(setup, history, records)
  if (coverage.covered.length === 0 && coverage.direct.length === 0) {
    return { kind: 'skipped', reason: window.commits.length === 0 ? 'nothing new' : 'nothing new could be read' }
  }
  if (await anotherRunTookIt(setup, batchesRead)) {
    return { kind: 'skipped', reason: 'another run took this batch: its record appeared on the digest issue meanwhile' }
  }
  const included = judged.parts.map(({ pull }) => ({ number: pull.facts.number, url: pull.facts.url }))
  const gated = judged.leftOut.map((skip) => skip.number)
  const covers = gated.length > 0 ? { ...coverage.window, skipped: gated } : coverage.window
  const batch: BatchPlan = { window: covers, included, leftOut: judged.leftOut }
  if (included.length === 0 && coverage.direct.length === 0) return allLeftOut(setup, batch)
  const comment = setup.openComment({ state: { job: UNKNOWN_JOB, requests: [], batch: batch.window }, find: false })
  const material = { branch, parts: judged.parts, direct: coverage.direct, leftOut: judged.leftOut }
  const prompt = settings.prompt ?? ''
  const text = (): Promise<string> => Promise.resolve(composeBatch(prompt, settings, material, setup.redact))
  const decided = await sendPrompt(setup, runRecord(setup), { prompt, target: { kind: 'start' }, text }, comment)
  return decided.kind === 'job' ? { ...decided, extra: batch } : decided
}

/** Whether another run recorded a batch of this project on the digest issue since this run read its batches. */
async function anotherRunTookIt(setup: StepSetup, batchesRead: number): Promise<boolean> {
  const again = await setup.thread?.listTracked(GITHUB_DEADLINE_MS).catch(() => undefined)
  const batches = again?.filter(
    (comment) => comment.state.batch && tracksProject(comment.state, setup.settings.projectId)
  )
  return batches !== undefined && batches.length > batchesRead
}

/** Every pull request of the batch was left out by the gates: recorded, so the cursor passes them, and no job. */
function allLeftOut(setup: StepSetup, batch: BatchPlan): Decision<BatchPlan> {
  const reason = `every pull request of this batch was skipped by the gates (${batch.leftOut.map((skip) => `#${skip.number}`).join(', ')})`
  const state = { job: UNKNOWN_JOB, requests: [], batch: batch.window, ended: LEFT_OUT_BATCH }
  return { kind: 'skipped', reason, comment: setup.openComment({ state, find: false }), extra: batch }
}

export type PendingRead =
  /** This run waits for the batch's job (still running), or ends as that batch (it completed since). */
  | { readonly kind: 'follow'; readonly job: AgentJob; readonly note: string }
  /** Its end is noted, and the next batch goes on from it (completed) or takes its pull requests again. */
  | { readonly kind: 'noted'; readonly job: AgentJob; readonly status: TerminalStatus }
  | { readonly kind: 'error' | 'cancelled'; readonly reason: string }

/** What a read of the job of the batch on record, whose end the record does not say, means for this run. */
export function judgePendingJob(jobId: string, read: PollResult, wait: boolean): PendingRead {
  const name = `agent job "${forLog(jobId, 80)}"`
  if (read.kind !== 'job') {
    const why =
      read.kind === 'cancelled' ? 'the run was cancelled' : read.kind === 'not found' ? read.described : read.reason
    const reason = `The batch before this one left ${name}, which cannot be read now (${why}), so it may still be running. Nothing was sent; the next run looks again.`
    return { kind: read.kind === 'cancelled' ? 'cancelled' : 'error', reason }
  }
  const { job } = read
  if (!isTerminal(job.status)) {
    const note = `The batch before this one is still running (${name}): waiting for it instead of starting a second job for the same pull requests.`
    return { kind: 'follow', job, note }
  }
  if (job.status === 'completed' && wait) {
    // The run that started it ended first: this run tells its end (outcome, prLink, the notes), for the later steps.
    const note = `The batch before this one completed after its run had ended (${name}): this run ends as that batch; what was merged since waits for the next run.`
    return { kind: 'follow', job, note }
  }
  return { kind: 'noted', job, status: job.status }
}

/** The batch a run that ended before its job did left on record: this run waits for its job, and reports it. */
function asThatBatch(setup: StepSetup, last: StoredComment, job: AgentJob): Decision<BatchPlan> {
  const { state } = last
  const comment = setup.openComment({ state, commentId: last.id, find: false })
  const batch = state.batch ? { extra: planOf(state.batch) } : {}
  return {
    kind: 'job',
    jobId: state.job,
    job,
    submission: undefined,
    followedUp: false,
    sent: false,
    comment,
    ...batch
  }
}

/** A batch as a record tells it, when the run that started it ended before its job did. */
function planOf(window: BatchWindow): BatchPlan {
  const gated = new Set(window.skipped ?? [])
  const included = window.pulls.filter((number) => !gated.has(number)).map((number) => ({ number, url: '' }))
  return { window, included, leftOut: [...gated].map((number) => ({ number, reason: 'left out by the gates' })) }
}

/** With `batch-notify`: once the batch's job completes with a pull request, one line on each pull request it covered. */
export async function notifyCovered(
  setup: StepSetup,
  decision: Decision<BatchPlan> & { kind: 'job' },
  result: WaitResult
): Promise<void> {
  const { history, log } = setup
  const opened = result.job?.pr
  if (!setup.settings.batch.notify || decision.extra === undefined || history === undefined) return
  if (result.kind !== 'completed' || opened?.kind !== 'link') return
  const count = decision.extra.included.length
  const body = `Documented in ${opened.url.href}, by a docs batch of ${count} pull request${count === 1 ? '' : 's'}.`
  for (const { number } of decision.extra.included) {
    await history.note(number, body).catch(() => {
      log.warning(`Could not comment on pull request #${number}: ${permissionHint('pull-requests: write')}.`)
    })
  }
}

/** The digest issue a batch keeps its record on: `issue-number`, or the one with `digest-label` (see DigestIssue). */
export async function digestIssue(
  settings: Settings,
  { history, reads }: { readonly history: History; readonly reads: GitHubReads | undefined },
  log: Logger,
  redact: Redact
): Promise<
  { readonly kind: 'ready'; readonly number: number } | { readonly kind: 'unavailable'; readonly reason: string }
> {
  if (settings.issueNumber !== undefined) return { kind: 'ready', number: settings.issueNumber }
  const label = settings.batch.digestLabel
  try {
    if (reads === undefined) throw new Error('the reads of GitHub could not be set up')
    const number = await history.digestIssue().find(label, reads)
    log.info(`Digest issue: #${number} (labelled "${forLog(label, 80)}").`)
    return { kind: 'ready', number }
  } catch (error) {
    const why = forLog(redact(errorMessage(error)), 300)
    const status = httpStatusOf(error)
    const advice =
      status === 404
        ? 'an issue it found is gone (transferred or deleted), or the token cannot see it: pass issue-number to name the digest issue, and check permissions: issues: write'
        : status === 401 || status === 403 || status === undefined
          ? permissionHint('issues: write')
          : 'GitHub failed; the next run tries again'
    return {
      kind: 'unavailable',
      reason: `the digest issue labelled "${forLog(label, 80)}" could not be found or opened (${why}); ${advice}`
    }
  }
}
