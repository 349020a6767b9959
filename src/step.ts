// The step, once its inputs are read: choose the job (starting it or sending a follow-up when asked), keep the
// tracking comment, wait, and report the outcome through the outputs, the summary and the log.
import * as core from '@actions/core'
import type { Dispatcher } from 'undici'
import { createAdminApi } from './admin-api.ts'
import { sleepUnlessCancelled } from './cancellation.ts'
import { chooseJob } from './choose-job.ts'
import { formatDuration } from './duration.ts'
import { errorMessage } from './error-message.ts'
import type { CommentView } from './comment-body.ts'
import type { CommentResult, GitHubSide, OpenedGitHub, TrackingUpdate } from './github-side.ts'
import type { AgentJob } from './job.ts'
import type { OutputWriter } from './outputs.ts'
import { resultOutputs } from './outputs.ts'
import { pick } from './pick.ts'
import { FOLLOW_UP_SETTLE_MS, waitForJob, type WaitStats } from './poller.ts'
import { logProgress } from './progress-log.ts'
import { githubHosts } from './pull-request-link.ts'
import type { Redact } from './redact.ts'
import type { Settings } from './settings.ts'
import { type SummaryFacts, summaryOf } from './summary.ts'
import { forLog } from './untrusted-text.ts'
import { type StepResult, verdictOf } from './verdict.ts'

export interface StepContext {
  readonly userAgent: string
  readonly dispatcher: Dispatcher
  readonly redact: Redact
  readonly cancelSignal: AbortSignal
  readonly outputs: OutputWriter
  /** Writes the job summary; never throws. */
  readonly writeSummary: (html: string) => Promise<void>
}

/**
 * Everything one piece of GitHub work does (reading the tracking comments, or writing one) ends within this. After
 * the job ends, the comment holds the runner no longer than this in all.
 */
export const GITHUB_DEADLINE_MS = 60_000
/** The tracking comment's edit after a cancellation must fit in the time the runner leaves. */
export const CANCELLED_COMMENT_DEADLINE_MS = 2000
/** Less time than this left for an edit is not worth a request. */
const MIN_COMMENT_TIME_MS = 1000

export async function runStep(settings: Settings, context: StepContext): Promise<void> {
  const startedAt = Date.now()
  const deadline = startedAt + settings.timeoutMs
  const clock = {
    now: Date.now,
    random: Math.random,
    sleep: (ms: number) => sleepUnlessCancelled(ms, context.cancelSignal),
    cancelled: () => context.cancelSignal.aborted
  }
  const api = createAdminApi({
    ...pick(settings, 'baseUrl', 'projectId', 'apiKey'),
    userAgent: context.userAgent,
    dispatcher: context.dispatcher,
    redact: context.redact,
    githubHosts: githubHosts(process.env['GITHUB_SERVER_URL']),
    cancelSignal: context.cancelSignal
  })
  const opened =
    settings.comment || (settings.followUp && settings.jobId === undefined)
      ? await openGitHub(settings, context)
      : undefined
  const github = opened?.kind === 'ready' ? opened.side : undefined
  if (opened?.kind === 'unavailable' && settings.comment) core.warning(`No comment will be made: ${opened.reason}.`)

  core.info(
    `Mintlify admin API at ${settings.baseUrl.href}, project "${forLog(settings.projectId)}" (timeout ${formatDuration(settings.timeoutMs)}, ` +
      `polling every ${formatDuration(settings.pollIntervalMs)} growing to ${formatDuration(settings.maxPollIntervalMs)})`
  )
  const chosen = await chooseJob({
    settings,
    api,
    github,
    githubUnavailable: opened?.kind === 'unavailable' ? opened.reason : undefined,
    deadline,
    githubDeadlineMs: GITHUB_DEADLINE_MS,
    clock,
    log: (message) => {
      core.info(message)
    }
  })
  // What was sent, for the summary: the request made, or the one that was tried.
  const sentKind = chosen.kind === 'job' ? chosen.request?.kind : settings.jobId === undefined ? 'start' : 'follow-up'
  const report = reporter(settings, context, {
    projectId: settings.projectId,
    jobId: chosen.kind === 'job' ? chosen.jobId : chosen.unsure?.job || undefined,
    sent:
      settings.prompt === undefined || sentKind === undefined
        ? undefined
        : { kind: sentKind === 'start' ? 'prompt' : 'follow-up', prompt: settings.prompt }
  })
  const stats = (job: AgentJob | undefined): WaitStats => ({
    polls: 0,
    elapsedMs: Date.now() - startedAt,
    job,
    faults: 0
  })

  if (chosen.kind !== 'job') {
    // A request that may have reached the API is recorded on the issue, so that a re-run does not send it again.
    const { unsure } = chosen
    const comment =
      unsure && settings.comment && github
        ? trackingComment(github, { job: unsure.job, add: [unsure.request] }, context.outputs)
        : undefined
    await report({ ...stats(undefined), kind: chosen.kind, reason: chosen.reason }, comment)
    return
  }
  context.outputs.set('job-id', chosen.jobId)
  const comment =
    settings.comment && github
      ? trackingComment(
          github,
          {
            job: chosen.jobId,
            add: chosen.request ? [chosen.request] : [],
            started: chosen.request?.kind === 'start'
          },
          context.outputs
        )
      : undefined
  comment?.show({ kind: settings.wait ? 'active' : 'started' })

  if (!settings.wait) {
    await report({ ...stats(chosen.job), kind: 'started' }, comment)
    return
  }

  core.info(`Waiting for agent job "${forLog(chosen.jobId)}".`)
  const result = await waitForJob(
    (timeoutMs) => api.getJob(chosen.jobId, timeoutMs),
    {
      ...pick(settings, 'pollIntervalMs', 'maxPollIntervalMs', 'requestTimeoutMs'),
      timeoutMs: Math.max(deadline - Date.now(), 0)
    },
    clock,
    logProgress(core),
    chosen.job ? { job: chosen.job, ...(chosen.followedUp ? { settleMs: FOLLOW_UP_SETTLE_MS } : {}) } : undefined
  )
  await report({ ...result, elapsedMs: Date.now() - startedAt }, comment)
}

interface TrackingComment {
  /** Posts or edits the comment in the background, while the step goes on. */
  show(view: CommentView): void
  /** Waits for the comment in the background, then edits it with the outcome, within one budget in all. */
  end(view: CommentView & { kind: 'ended' }): Promise<void>
  /** Waits for the comment in the background (the step does not wait for the job, so there is no outcome yet). */
  settle(): Promise<void>
}

/** The job's tracking comment: posted as soon as the job is known, edited when it ends. Never throws. */
function trackingComment(github: GitHubSide, update: TrackingUpdate, outputs: OutputWriter): TrackingComment {
  let shown: string | undefined
  let pending: Promise<void> = Promise.resolve()
  const announce = (commented: CommentResult): void => {
    if (commented.kind === 'warning') {
      core.warning(commented.warning)
      return
    }
    if (commented.url === shown) return
    shown = commented.url
    outputs.set('comment-url', commented.url)
    core.info(`Tracking comment: ${commented.url}`)
  }
  return {
    show: (view) => {
      pending = github.write(update, view, GITHUB_DEADLINE_MS).then(announce)
    },
    end: async (view) => {
      // From here on the comment holds the runner: the first comment's remaining time and the edit share one budget.
      const budget = view.result.kind === 'cancelled' ? CANCELLED_COMMENT_DEADLINE_MS : GITHUB_DEADLINE_MS
      const holding = Date.now()
      let timer: NodeJS.Timeout | undefined
      await Promise.race([pending, new Promise((resolve) => (timer = setTimeout(resolve, budget)))])
      clearTimeout(timer)
      const left = budget - (Date.now() - holding)
      if (left < MIN_COMMENT_TIME_MS) {
        core.warning(
          `The tracking comment was not edited with the outcome: GitHub took all of its ${formatDuration(budget)}.`
        )
        return
      }
      announce(await github.write(update, view, left))
    },
    settle: () => pending
  }
}

/**
 * Reports the result: outputs first (a later step may need them even when this one fails), then the summary, the
 * tracking comment, and the verdict.
 */
function reporter(
  settings: Pick<Settings, 'timeoutMs' | 'failOn'>,
  context: StepContext,
  facts: SummaryFacts
): (result: StepResult, comment: TrackingComment | undefined) => Promise<void> {
  return async (result, comment) => {
    const verdict = verdictOf(result, { jobId: facts.jobId, ...pick(settings, 'timeoutMs', 'failOn') })
    context.outputs.setAll(resultOutputs(result))
    const pr = result.job?.pr
    if (pr?.kind === 'dropped') {
      core.warning(`The API returned a prLink that is not an http(s) URL ("${forLog(pr.text, 80)}"); it was dropped.`)
    }
    await context.writeSummary(summaryOf(result, facts, verdict))
    if (result.kind === 'started') await comment?.settle()
    else await comment?.end({ kind: 'ended', result, message: verdict.message, timeoutMs: settings.timeoutMs })
    if (verdict.fails) core.setFailed(verdict.message)
    else core.info(verdict.message)
  }
}

/** Loads the GitHub side (Octokit and the event context live in a chunk of their own). Never throws. */
async function openGitHub(settings: Settings, context: StepContext): Promise<OpenedGitHub> {
  try {
    const { openGitHubSide } = await import('./github-side.ts')
    return openGitHubSide({
      token: settings.githubToken,
      issueNumber: settings.issueNumber,
      userAgent: context.userAgent,
      dispatcher: context.dispatcher,
      redact: context.redact,
      debug: core.debug,
      cancelSignal: context.cancelSignal
    })
  } catch (error) {
    return {
      kind: 'unavailable',
      reason: `GitHub could not be set up (${forLog(context.redact(errorMessage(error)), 300)})`
    }
  }
}
