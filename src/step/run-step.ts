// The step, once its inputs are read: choose the job (starting it or sending a follow-up when asked), keep the
// tracking comment, wait, and report the outcome through the outputs, the summary and the log.
import { createAdminApi } from '../admin-api/client.ts'
import { githubHosts } from '../admin-api/pull-request-link.ts'
import { loadGitHubSide } from '../github/load-github.ts'
import type { OpenedGitHub } from '../github/open-github.ts'
import type { RunnerEnvironment } from '../runner/environment.ts'
import { logProgress } from '../runner/progress-log.ts'
import type { RunnerIo } from '../runner/runner-io.ts'
import type { Settings } from '../runner/settings/settings.ts'
import type { Transport } from '../transport/transport.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted-text.ts'
import { type Chosen, chooseJob } from './choose-job.ts'
import { stepClock } from './clock.ts'
import { reporter } from './report.ts'
import { FOLLOW_UP_SETTLE_MS } from './time-budgets.ts'
import { trackingComment } from './tracking-comment.ts'
import { waitForJob } from './wait-for-job.ts'

export interface StepContext {
  readonly transport: Transport
  readonly environment: RunnerEnvironment
  readonly runner: RunnerIo
}

export async function runStep(settings: Settings, context: StepContext): Promise<void> {
  const { runner, transport } = context
  const clock = stepClock(transport.cancelSignal)
  const startedAt = clock.now()
  const deadline = startedAt + settings.timeoutMs
  const api = createAdminApi(transport, settings, githubHosts(context.environment.serverUrl))
  const opened = await openGitHubIfAsked(settings, context)
  const github = opened?.kind === 'ready' ? opened.side : undefined
  runner.log.info(
    `Mintlify admin API at ${settings.baseUrl.href}, project "${forLog(settings.projectId)}" (timeout ${formatDuration(settings.timeoutMs)}, ` +
      `polling every ${formatDuration(settings.pollIntervalMs)} growing to ${formatDuration(settings.maxPollIntervalMs)})`
  )
  const chosen = await chooseJob({
    settings,
    api,
    github,
    githubUnavailable: opened?.kind === 'unavailable' ? opened.reason : undefined,
    runId: context.environment.runId,
    deadline,
    clock,
    log: (message) => {
      runner.log.info(message)
    }
  })
  const report = reporter(settings, runner, summaryFacts(settings, chosen))
  const nothingWaited = { polls: 0, faults: 0, elapsedMs: clock.now() - startedAt }

  if (chosen.kind !== 'job') {
    // A request that may have reached the API is recorded on the issue, so that a re-run does not send it again.
    const { unsure } = chosen
    const comment =
      unsure && settings.comment && github
        ? trackingComment(github, { job: unsure.job, add: [unsure.request] }, runner)
        : undefined
    await report({ ...nothingWaited, job: undefined, kind: chosen.kind, reason: chosen.reason }, comment)
    return
  }
  runner.outputs.set('job-id', chosen.jobId)
  const update = {
    job: chosen.jobId,
    add: chosen.request ? [chosen.request] : [],
    started: chosen.request?.kind === 'start'
  }
  const comment = settings.comment && github ? trackingComment(github, update, runner) : undefined
  comment?.show({ kind: settings.wait ? 'active' : 'started' })
  if (!settings.wait) {
    await report({ ...nothingWaited, job: chosen.job, kind: 'started' }, comment)
    return
  }
  runner.log.info(`Waiting for agent job "${forLog(chosen.jobId)}".`)
  const result = await waitForJob({
    ...settings,
    fetchJob: (timeoutMs) => api.getJob(chosen.jobId, timeoutMs),
    timeoutMs: Math.max(deadline - clock.now(), 0),
    clock,
    onEvent: logProgress(runner.log),
    known: chosen.job ? { job: chosen.job, ...(chosen.followedUp ? { settleMs: FOLLOW_UP_SETTLE_MS } : {}) } : undefined
  })
  await report({ ...result, elapsedMs: clock.now() - startedAt }, comment)
}

/** GitHub, when `comment` or a follow-up through the issue asks for it; a comment that cannot be made is a warning. */
async function openGitHubIfAsked(settings: Settings, context: StepContext): Promise<OpenedGitHub | undefined> {
  if (!settings.comment && !(settings.followUp && settings.jobId === undefined)) return undefined
  const opened = await loadGitHubSide({
    token: settings.githubToken,
    issueNumber: settings.issueNumber,
    repository: context.environment.repository,
    transport: context.transport,
    debug: (message) => {
      context.runner.log.debug(message)
    }
  })
  if (opened.kind === 'unavailable' && settings.comment) {
    context.runner.log.warning(`No comment will be made: ${opened.reason}.`)
  }
  return opened
}

/** The job and the prompt, for the summary: the request made, or the one that was tried. */
function summaryFacts(settings: Settings, chosen: Chosen) {
  const sentKind = chosen.kind === 'job' ? chosen.request?.kind : settings.jobId === undefined ? 'start' : 'follow-up'
  return {
    projectId: settings.projectId,
    jobId: chosen.kind === 'job' ? chosen.jobId : chosen.unsure?.job || undefined,
    sent:
      settings.prompt === undefined || sentKind === undefined
        ? undefined
        : { kind: sentKind === 'start' ? ('prompt' as const) : ('follow-up' as const), prompt: settings.prompt }
  }
}
