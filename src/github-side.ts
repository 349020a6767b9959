// GitHub as far as the step uses it: one session, then each room of work on it (the request's desk, the reads before
// a job is spent, the batch's history, the issue and its tracking comments, the pull requests, the docs repository's
// agent pull requests, the code for the grounding check), each loaded in a chunk of its own only by a run that uses
// it, so that a run that uses none of it never loads Octokit.
import type { CodeReads } from './decide/decision.ts'
import type { History } from './github/history.ts'
import type { OpenedThread } from './github/thread.ts'
import type { PullOperations } from './github/pulls.ts'
import type { GitHubReads } from './github/reads.ts'
import type { RequestDesk } from './github/desk.ts'
import type { GitHubSession } from './github/session.ts'
import { digestIssue } from './modes/batch/batch.ts'
import { asksNothing } from './modes/requests/requests.ts'
import { takesRequests } from './inputs/mode-settings.ts'
import { type Settings, usesIssue } from './inputs/settings.ts'
import { CHANGE_EVENTS, REQUEST_EVENTS } from './runner/events.ts'
import type { RunnerEnvironment } from './runner/environment.ts'
import type { RunnerIo } from './runner/io.ts'
import type { Transport } from './transport/transport.ts'
import type { Redact } from './text/redact.ts'
import { errorMessage, forLog } from './text/untrusted.ts'
import { GITHUB_DEADLINE_MS } from './wait/retry.ts'

/** What GitHub's rooms of work are built with: HTTP, the runner's environment, and the log. */
interface Outside {
  readonly transport: Transport
  readonly environment: RunnerEnvironment
  readonly runner: RunnerIo
}

/**
 * GitHub as far as the step uses it: one session, then each room of work on it, each loaded in a chunk of its own
 * only by a run that uses it.
 */
export async function openGitHubSide(settings: Settings, outside: Outside) {
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
  const sweep = sweeps(settings) ? await loadSweep(session, outside) : undefined
  const codeReads = asked && settings.grounding.mode !== 'off' ? await loadCodeReads(session, outside) : undefined
  return { session, desk, reads, history, opened, pulls, sweep, codeReads }
}

/** Whether the step may use GitHub at all: the union of what each room of GitHub work is loaded for. */
function usesGitHub(settings: Settings, eventName: string): boolean {
  return (
    askedWith(settings, eventName) ||
    readsChange(settings, eventName) ||
    settings.mode === 'batch' ||
    usesIssue(settings.githubUse) ||
    usesPulls(settings) ||
    sweeps(settings)
  )
}

/** Whether the step reads the docs repository's agent pull requests: a sweep, or a pair's `merge-approved`. */
const sweeps = (use: Settings) => use.mode === 'sweep' || (use.mode === 'pair' && use.pair.mergeApproved)

/** The docs repository's agent pull requests and their records (see github/docs-sweep.ts). */
function loadSweep(session: GitHubSession | Error | undefined, outside: Outside) {
  return loaded(outside, 'The docs repository cannot be reached (an error in the action).', async () => {
    const [{ openDocsSweep }, at] = [await import('./github/docs-sweep.ts'), opened(session)]
    return (repository: string | undefined) => openDocsSweep(at, repository)
  })
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
