// What the step sets up before it chooses the job: its clock and deadline, the admin API client, and GitHub when
// `comment` or a follow-up through the issue asks for it.
import { type AdminApi, createAdminApi } from '../admin-api/client.ts'
import { loadGitHubSide } from '../github/load-github.ts'
import type { GitHubSide } from '../github/open-github.ts'
import type { Settings } from '../runner/settings/settings.ts'
import { startLine } from '../runner/progress-log.ts'
import { type StepClock, stepClock } from './clock.ts'
import type { StepContext } from './step-context.ts'
import { composePrompt } from './compose-prompt.ts'
import { type CommentStart, TrackingComment } from './tracking-comment.ts'

export interface StepSetup {
  readonly clock: StepClock
  readonly startedAt: number
  /** When the step's time runs out. */
  readonly deadline: number
  readonly api: AdminApi
  /** Present when asked for and opened. */
  readonly github: GitHubSide | undefined
  /** Why GitHub could not be opened, when it was asked for. */
  readonly githubUnavailable: string | undefined
  /** The job's tracking comment, with `comment: true` and GitHub opened. */
  readonly openComment: (start: CommentStart) => TrackingComment | undefined
  /** The prompt as it is sent: with `context: auto`, followed by what changed. */
  readonly compose: (prompt: string) => Promise<string>
}

export async function setUpStep(settings: Settings, context: StepContext): Promise<StepSetup> {
  const { transport, environment, runner } = context
  const clock = stepClock(transport.cancelSignal)
  const startedAt = clock.now()
  const api = createAdminApi(transport, settings, environment.serverUrl)
  const opened = usesGitHub(settings)
    ? await loadGitHubSide({
        token: settings.githubToken,
        issueNumber: settings.issueNumber,
        repository: environment.repository,
        transport,
        debug: (message) => {
          runner.log.debug(message)
        },
        warning: (message) => {
          runner.log.warning(message)
        }
      })
    : undefined
  if (opened?.kind === 'unavailable' && settings.comment)
    runner.log.warning(`No comment will be made: ${opened.reason}.`)
  runner.log.info(startLine(settings))
  const github = opened?.kind === 'ready' ? opened.side : undefined
  const commentRunner = {
    outputs: runner.outputs,
    log: runner.log,
    now: clock.now,
    cancelled: clock.cancelled,
    whenCancelled: clock.whenCancelled
  }
  return {
    clock,
    startedAt,
    deadline: startedAt + settings.timeoutMs,
    api,
    github,
    githubUnavailable: opened?.kind === 'unavailable' ? opened.reason : undefined,
    openComment: (start) =>
      settings.comment && github ? new TrackingComment(github, commentRunner, start) : undefined,
    compose: (prompt) => composePrompt(prompt, settings, context)
  }
}

/** `comment`, or a follow-up that finds its job through the issue's tracking comment. */
function usesGitHub(settings: Settings): boolean {
  return settings.comment || (settings.followUp && settings.jobId === undefined)
}
