// What the step sets up once its inputs are read: its clock and deadline, the admin API, and GitHub as far as the
// step uses it (the issue and its tracking comments, the reads before a job is spent, the docs pull request and the
// check run), loaded with Octokit in chunks of their own, so that a run that uses none of it never loads Octokit.
import { createAdminApi } from './admin-api/client.ts'
import { githubHosts } from './admin-api/agent-job.ts'
import { digestIssue } from './modes/batch/batch.ts'
import { asksNothing } from './modes/requests/requests.ts'
import type { CodeReads, StepSetup } from './decide/decision.ts'
import type { EventChange } from './github/change.ts'
import type { History } from './github/history.ts'
import type { OpenedThread } from './github/thread.ts'
import type { Done, PullOperations } from './github/pulls.ts'
import type { GitHubReads } from './github/reads.ts'
import type { RequestDesk } from './github/desk.ts'
import type { GitHubSession } from './github/session.ts'
import { takesRequests } from './inputs/mode-settings.ts'
import { type Settings, usesIssue } from './inputs/settings.ts'
import { composePrompt } from './prompt/compose.ts'
import type { Cancel, RunnerEnvironment } from './runner/environment.ts'
import { CHANGE_EVENTS, REQUEST_EVENTS } from './runner/events.ts'
import type { RunnerIo } from './runner/io.ts'
import { CheckRun, checkPlace } from './report/check-run.ts'
import { startLine } from './report/report.ts'
import { TrackingComment } from './report/tracking-comment.ts'
import type { Redact } from './text/redact.ts'
import type { Transport } from './transport/transport.ts'
import { errorMessage, forLog } from './text/untrusted.ts'
import { GITHUB_DEADLINE_MS, stepClock } from './wait/retry.ts'

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
  const { session, desk, reads, history, opened, pulls, codeReads } = await openGitHubSide(settings, outside)
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
    desk,
    redact: transport.redact,
    login: async () => (session instanceof Error ? undefined : session?.login()),
    docsLogin: async () => (session instanceof Error ? undefined : session?.docsLogin()),
    githubHosts: githubHosts(environment.serverUrl),
    runId: environment.runId,
    step: environment.step,
    log: runner.log,
    openComment: (start) =>
      settings.githubUse.comment && thread ? new TrackingComment(thread, commentRunner, start) : undefined,
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

/**
 * GitHub as far as the step uses it: one session, then each room of work on it, each loaded in a chunk of its own
 * only by a run that uses it.
 */
async function openGitHubSide(settings: Settings, outside: Outside) {
  const { environment, runner, transport } = outside
  const session = usesGitHub(settings, environment.eventName) ? await loadSession(settings, outside) : undefined
  const desk = askedWith(settings, environment.eventName) ? await loadDesk(session, outside) : undefined
  // A step that answers people, on an event that asks nothing, ends at once: it needs nothing more.
  const asked = !asksNothing(settings, desk?.read)
  // A batch finds its digest issue by the action's own records, and so who the token acts as.
  const batch = settings.mode === 'batch'
  const reads =
    asked && (readsChange(settings, environment.eventName) || batch)
      ? await loadReads(settings, session, outside)
      : undefined
  const history = batch ? await loadHistory(session, outside) : undefined
  const digest = history ? await digestIssue(settings, { history, reads }, runner.log, transport.redact) : undefined
  const opened =
    digest?.kind === 'unavailable'
      ? digest
      : asked && usesIssue(settings.githubUse)
        ? await loadGitHub(session, digest?.number, transport.redact)
        : undefined
  const pulls = asked && usesPulls(settings) ? await loadPulls(session, outside) : undefined
  const codeReads = asked && settings.grounding.mode !== 'off' ? await loadCodeReads(session, outside) : undefined
  return { session, desk, reads, history, opened, pulls, codeReads }
}

/** Whether the step may use GitHub at all: the union of what each room of GitHub work is loaded for. */
function usesGitHub(settings: Settings, eventName: string): boolean {
  return (
    askedWith(settings, eventName) ||
    readsChange(settings, eventName) ||
    settings.mode === 'batch' ||
    usesIssue(settings.githubUse) ||
    usesPulls(settings)
  )
}

/**
 * GitHub for the whole step (see github/session.ts): the chunk that holds Octokit. What kept it from opening (the
 * event file, GITHUB_API_URL) is told by each room of work that needed it, in its own words.
 */
async function loadSession(settings: Settings, outside: Outside): Promise<GitHubSession | Error> {
  const { transport, environment, runner } = outside
  const where = { repository: environment.repository, deadlineMs: GITHUB_DEADLINE_MS, log: runner.log }
  try {
    return (await import('./github/session.ts')).openSession(settings, transport, where)
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
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

/** Whether this event may be a request, for the step to read what it asks (see github/desk.ts). */
function askedWith(settings: Settings, eventName: string): boolean {
  return takesRequests(settings.requests) && REQUEST_EVENTS.has(eventName)
}

/**
 * A room of GitHub work, loaded in a chunk of its own only by a run that uses it; undefined, with `cannot` as a
 * warning, when it cannot be. Never throws.
 */
async function loaded<T>(outside: Outside, cannot: string, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load()
  } catch {
    outside.runner.log.warning(cannot)
    return undefined
  }
}

/** What a person asks, and the answers on GitHub (see github/desk.ts). */
function loadDesk(session: GitHubSession | Error | undefined, outside: Outside): Promise<RequestDesk | undefined> {
  return loaded(outside, 'The request in this event cannot be read (an error in the action).', async () =>
    (await import('./github/desk.ts')).openDesk(opened(session))
  )
}

/** The session, for a room of work to be built on; throws what kept it from opening. */
function opened(session: GitHubSession | Error | undefined): GitHubSession {
  if (session instanceof Error) throw session
  if (session === undefined) throw new Error('GitHub is not used by this step')
  return session
}

/** Whether the step reads the change the event is about: for `context: auto`, to gate it, or to find its commit. */
function readsChange(settings: Settings, eventName: string): boolean {
  const { githubUse } = settings
  return (
    settings.context === 'auto' ||
    githubUse.countJobs ||
    (githubUse.gate && CHANGE_EVENTS.has(eventName)) ||
    (settings.check !== undefined && CHANGE_EVENTS.has(eventName))
  )
}

/** Whether the step works on pull requests: a pair's, the check run, docs-paths' and grounding's reading. */
function usesPulls(settings: Settings): boolean {
  const { mode, check, docsPaths, grounding } = settings
  return mode === 'pair' || check !== undefined || docsPaths !== undefined || grounding.mode !== 'off'
}

/** The reads of GitHub (see github/reads.ts). */
function loadReads(
  settings: Settings,
  session: GitHubSession | Error | undefined,
  outside: Outside
): Promise<GitHubReads | undefined> {
  const cannot = `What changed could not be read (an error in the action): ${settings.context === 'auto' ? 'context: auto adds nothing, and ' : ''}the gates let the change through.`
  return loaded(outside, cannot, async () => (await import('./github/reads.ts')).openReads(opened(session)))
}

/** With `mode: batch`: the repository's history (see github/history.ts). */
function loadHistory(session: GitHubSession | Error | undefined, outside: Outside): Promise<History | undefined> {
  return loaded(outside, "The repository's history cannot be read (an error in the action).", async () => {
    const { History } = await import('./github/history.ts')
    return new History(opened(session))
  })
}

/** The writes to pull requests (see github/pulls.ts). */
function loadPulls(session: GitHubSession | Error | undefined, outside: Outside): Promise<PullOperations | undefined> {
  const cannot = 'The docs pull request and the check run cannot be reached (an error in the action).'
  return loaded(outside, cannot, async () => (await import('./github/pulls.ts')).openPulls(opened(session)))
}

/** With `grounding`: the code's tarball and the review (see github/tarball.ts, github/review.ts). */
function loadCodeReads(session: GitHubSession | Error | undefined, outside: Outside): Promise<CodeReads | undefined> {
  return loaded(outside, 'The code cannot be read from GitHub (an error in the action).', async () => {
    const [tarball, review] = await Promise.all([import('./github/tarball.ts'), import('./github/review.ts')])
    const github = opened(session)
    return { tarball: (where) => tarball.downloadTarball(github, where), review: new review.DocsReview(github) }
  })
}

/** The issue or pull request and its tracking comments (see github/thread.ts). Never throws. */
async function loadGitHub(
  session: GitHubSession | Error | undefined,
  issueNumber: number | undefined,
  redact: Redact
): Promise<OpenedThread> {
  try {
    const { openThread } = await import('./github/thread.ts')
    return openThread(opened(session), issueNumber)
  } catch (error) {
    const reason = forLog(redact(errorMessage(error)), 300)
    return { kind: 'unavailable', reason: `GitHub could not be set up (${reason})` }
  }
}
