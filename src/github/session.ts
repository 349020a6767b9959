// GitHub for the whole step: each token's access, the repository's owner and name read once, the workflow run and its
// event, who the tokens act as (asked until GitHub says); and the one place a piece of work's Octokit client is built.
import { context } from '@actions/github'
import type { Settings } from '../inputs/settings.ts'
import type { Logger } from '../runner/io.ts'
import type { Redact } from '../text/redact.ts'
import type { Transport } from '../transport/transport.ts'
import { createGitHubClient, githubAccess, type GitHubAccess, type GitHubClient, loginOf } from './octokit.ts'

/** What the action reads of the workflow run and the event that started it. */
export type RunInfo = Pick<typeof context, 'eventName' | 'payload' | 'apiUrl' | 'serverUrl' | 'runId' | 'runAttempt'>

/** One piece of work's limits: its deadline (the session's by default), whether a cancel stops it, the write queue. */
export interface WorkLimits {
  readonly deadlineMs?: number
  /** Reads yes, writes no (a write cut off mid-way may still land). */
  readonly cancellable: boolean
  /** False for the one edit a cancelled run makes (see GitHubWork.throttled). */
  readonly throttled?: boolean
}

export interface GitHubSession {
  /** `owner/name`, from GITHUB_REPOSITORY. */
  readonly repository: string
  /** The repository's owner and name; undefined when GITHUB_REPOSITORY names none. */
  readonly repo: { readonly owner: string; readonly name: string } | undefined
  readonly run: RunInfo
  readonly settings: Settings
  readonly log: Logger
  readonly redact: Redact
  readonly cancelSignal: AbortSignal
  /** Each piece of work ends within this, unless it says otherwise. */
  readonly deadlineMs: number
  readonly apiUrl: string
  /** Whether `docs-token` was given: the docs repository's writes use it, and a refusal's advice names it. */
  readonly docsToken: boolean
  /** One piece of work's client; `as: 'docs'` uses docs-token when given. The only place Octokit is built. */
  client(limits: WorkLimits, as?: 'own' | 'docs'): GitHubClient
  /** Who github-token acts as: asked until GitHub says (no request without a token); undefined while it will not. */
  login(): Promise<string | undefined>
  /** Who docs-token acts as, the same way. */
  docsLogin(): Promise<string | undefined>
}

/** `run`: @actions/github's context, read from the runner's environment and event file. */
export function openSession(
  settings: Settings,
  transport: Transport,
  where: { readonly repository: string; readonly log: Logger; readonly deadlineMs: number },
  run: RunInfo = context
): GitHubSession {
  const { repository, log, deadlineMs } = where
  const access = (token: string): GitHubAccess =>
    githubAccess(token, run.apiUrl, transport, (message) => {
      log.debug(message)
    })
  const docsToken = settings.docsToken !== ''
  const own = access(settings.githubToken)
  const docs = docsToken ? access(settings.docsToken) : own
  const client = (limits: WorkLimits, as: 'own' | 'docs' = 'own'): GitHubClient =>
    createGitHubClient(transport, as === 'docs' ? docs : own, {
      deadlineMs: limits.deadlineMs ?? deadlineMs,
      cancellable: limits.cancellable,
      throttled: limits.throttled ?? true,
      requestTimeoutMs: settings.requestTimeoutMs
    })
  const whoIs = (token: string, as: 'own' | 'docs') => async (): Promise<string | undefined> => {
    if (token === '') return undefined
    const github = client({ cancellable: true }, as)
    return github.bounded(loginOf(github)).catch(() => undefined)
  }
  const [owner, name] = repository.split('/')
  return {
    repository,
    repo: owner && name ? { owner, name } : undefined,
    run,
    settings,
    log,
    redact: transport.redact,
    cancelSignal: transport.cancelSignal,
    deadlineMs,
    apiUrl: run.apiUrl,
    docsToken,
    client,
    login: untilSaid(whoIs(settings.githubToken, 'own')),
    docsLogin: untilSaid(whoIs(settings.docsToken, 'docs'))
  }
}

/** How many times a token's identity is asked at most in a run: as many as the readers that asked apart before. */
const MOST_ASKS = 2

/**
 * The answer kept once GitHub gives one; after a failure the next caller asks once more, so one lost answer (a 502, a
 * moment without network) does not leave loop prevention and the job count without it for the whole run, while a
 * GitHub out of reach is not asked by every reader in turn.
 */
function untilSaid(ask: () => Promise<string | undefined>): () => Promise<string | undefined> {
  let asked: Promise<string | undefined> | undefined
  let asks = 0
  return async () => {
    if (asked === undefined) {
      asks += 1
      asked = ask()
    }
    const said = await asked
    if (said === undefined && asks < MOST_ASKS) asked = undefined
    return said
  }
}
