// What the step sets up once its inputs are read: its clock and deadline, the admin API, GitHub as far as the step
// uses it (github-side.ts), the tracking comment, the prompt as sent and the check run.
import { createAdminApi } from './admin-api/client.ts'
import { githubHosts } from './admin-api/agent-job.ts'
import type { StepSetup } from './decide/decision.ts'
import type { EventChange } from './github/change.ts'
import type { Done, PullOperations } from './github/pulls.ts'
import type { GitHubReads } from './github/reads.ts'
import type { Settings } from './inputs/settings.ts'
import { composePrompt } from './prompt/compose.ts'
import type { Cancel, RunnerEnvironment } from './runner/environment.ts'
import type { RunnerIo } from './runner/io.ts'
import { CheckRun, checkPlace } from './report/check-run.ts'
import { startLine } from './report/report.ts'
import { TrackingComment } from './report/tracking-comment.ts'
import type { Redact } from './text/redact.ts'
import type { Transport } from './transport/transport.ts'
import { stepClock } from './wait/retry.ts'
import { openGitHubSide } from './github-side.ts'

/** What main.ts hands the step: how to reach the outside, what the runner said, and how to talk back to it. */
export interface Outside {
  readonly transport: Transport
  readonly environment: RunnerEnvironment
  readonly runner: RunnerIo
  /** The cancel, and when the step must have ended after it. */
  readonly cancel: Pick<Cancel, 'endsBy' | 'lastCall'>
}

export async function setUpStep(settings: Settings, outside: Outside): Promise<StepSetup> {
  const { transport, environment, runner } = outside
  const clock = stepClock(transport.cancelSignal)
  const startedAt = clock.now()
  const api = createAdminApi(settings, transport, environment.serverUrl)
  const { session, desk, reads, history, opened, pulls, sweep, codeReads } = await openGitHubSide(settings, outside)
  if (opened?.kind === 'unavailable' && settings.githubUse.comment)
    runner.log.warning(`No comment will be made: ${opened.reason}.`)
  runner.log.info(startLine(settings))
  const thread = opened?.kind === 'ready' ? opened.thread : undefined
  const commentRunner = {
    outputs: runner.outputs,
    log: runner.log,
    date: clock.date,
    now: clock.now,
    cancelled: clock.cancelled,
    whenCancelled: clock.whenCancelled,
    endsBy: outside.cancel.endsBy
  }
  return {
    settings,
    clock,
    startedAt,
    deadline: startedAt + settings.timeoutMs,
    api,
    thread,
    threadUnavailable: opened?.kind === 'unavailable' ? opened.reason : undefined,
    reads,
    pulls,
    codeReads,
    code: { ...environment, head: async () => headOf(reads, pulls, environment) },
    history,
    sweep,
    desk,
    redact: transport.redact,
    login: async () => (session instanceof Error ? undefined : session?.login()),
    docsLogin: async () => (session instanceof Error ? undefined : session?.docsLogin()),
    githubHosts: githubHosts(environment.serverUrl),
    runId: environment.runId,
    step: environment.step,
    log: runner.log,
    openComment: (start, on = settings.githubUse.comment ? thread : undefined) =>
      on ? new TrackingComment(on, commentRunner, start) : undefined,
    compose: async (prompt) => {
      const change = settings.context === 'auto' ? await reads?.change() : undefined
      return composeFor(desk?.read?.kind === 'request', prompt, settings, change, { redact: transport.redact, runner })
    }
  }
}

/** The prompt as sent, with what changed when `context: auto`. */
function composeFor(
  asked: boolean,
  prompt: string,
  settings: Settings,
  change: EventChange | undefined,
  { redact, runner }: { readonly redact: Redact; readonly runner: RunnerIo }
): string {
  if (!asked) return composePrompt(prompt, settings, change, redact, runner.log)
  // A person who may ask has decided the change is worth a job: the agent is not told it may change nothing.
  return composePrompt(prompt, { ...settings, noChangeNote: false }, withoutComment(change), redact, runner.log)
}

/** The change without the comment that started the run: a request's comment is the prompt, not material. */
function withoutComment(change: EventChange | undefined): EventChange | undefined {
  const facts = change?.facts
  if (change === undefined || (facts?.kind !== 'issue' && facts?.kind !== 'pull-request')) return change
  return { ...change, facts: { ...facts, comment: undefined } }
}

/**
 * The check run on the head commit this run describes (a pull request's head, a push's last commit, or the run's own
 * commit), with `check`; undefined without it, or when GitHub could not be set up.
 */
export async function openCheck(
  setup: StepSetup,
  environment: RunnerEnvironment,
  runner: RunnerIo
): Promise<CheckRun | undefined> {
  const { settings, pulls } = setup
  if (settings.check === undefined || pulls === undefined) return undefined
  const head = await headOf(setup.reads, pulls, environment)
  if (head.kind === 'warning') {
    runner.log.warning(`No check run is made: ${head.warning}`)
    return undefined
  }
  const headSha = head.value
  if (!/^[0-9a-f]{40}$/i.test(headSha)) {
    runner.log.warning('No check run is made: the event names no head commit to put it on.')
    return undefined
  }
  const detailsUrl = setup.thread?.run.url ?? runUrlOf(environment)
  const target = { name: settings.check.name, headSha, detailsUrl }
  return new CheckRun(pulls, target, runner.log, runner.outputs)
}

/** The head commit the run describes (see checkPlace), read from GitHub when it is a pull request's. */
async function headOf(
  reads: GitHubReads | undefined,
  pulls: Pick<PullOperations, 'head'> | undefined,
  environment: RunnerEnvironment
): Promise<Done<string>> {
  const place = checkPlace((await reads?.change())?.facts, environment.sha)
  if (place.kind === 'commit') return { kind: 'done', value: place.sha }
  return pulls ? pulls.head(place.number) : { kind: 'warning', warning: 'GitHub could not be set up.' }
}

function runUrlOf(environment: RunnerEnvironment): string | undefined {
  if (!environment.serverUrl || !environment.repository || !environment.runId) return undefined
  return `${environment.serverUrl}/${environment.repository}/actions/runs/${environment.runId}`
}
