// GitHub for the whole step: each token's access, the repository's owner and name read once, the workflow run and its
// event, who the tokens act as (asked until GitHub says); and the one place a piece of work's Octokit client is built:
// retries and throttling from Octokit's own plugins, every request through the action's undici dispatcher (so proxies
// apply), and everything bounded by one deadline. Loaded in a chunk of its own, with Octokit, only by runs that use it.
import { context } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import { Octokit } from '@octokit/rest'
import { setTimeout as delay } from 'node:timers/promises'
import { fetch as undiciFetch } from 'undici'
import type { Settings } from '../inputs/settings.ts'
import type { Logger } from '../runner/io.ts'
import { formatDuration } from '../text/duration.ts'
import type { Redact } from '../text/redact.ts'
import { faultWords, networkFaultOf, PROXY_AUTH_REQUIRED, tunnelRefusal } from '../transport/network-fault.ts'
import type { Transport } from '../transport/transport.ts'
import { httpStatusOf, responseHeader } from './fields.ts'
import {
  githubAccess,
  type GitHubAccess,
  type GitHubClient,
  type GitHubWork,
  isInstallationToken,
  loginOf,
  type RateLimitHit
} from './octokit.ts'

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

/** Whether a 429's Retry-After may be waited out: the seconds it asks, and how many such waits came before. */
type MayWaitOut = (retryAfterS: number, waited: number) => boolean
const isMayWaitOut = (value: unknown): value is MayWaitOut => typeof value === 'function'

/**
 * A failed request is not retried once the deadline has passed (plugin-retry would otherwise wait and try again, its
 * waits holding the runner, and only then give up), nor when the proxy wants credentials: trying again cannot help.
 * And a 429 that plugin-throttling does not take for a rate limit (it names no secondary limit and shows no spent
 * quota) but that says Retry-After is waited out and sent again, within the deadline, as the plugin waits out the
 * others. Listed first, so its hook runs before plugin-retry's, which tries again only an error that carries its
 * request.
 */
const withinDeadline: Parameters<typeof Octokit.plugin>[0] = (octokit, options) => {
  const deadline: unknown = options['deadline']
  const mayWait: unknown = options['mayWaitOut']
  let waited = 0
  octokit.hook.error('request', async (error, request) => {
    if (deadline instanceof AbortSignal && deadline.aborted) throw new Error('the deadline passed', { cause: error })
    if (tunnelRefusal(error) === PROXY_AUTH_REQUIRED) throw new Error('the proxy wants credentials', { cause: error })
    const retryAfterS = plainRetryAfter(error)
    if (retryAfterS === undefined || !isMayWaitOut(mayWait) || !mayWait(retryAfterS, waited)) throw error
    waited += 1
    await delay(retryAfterS * 1000, undefined, deadline instanceof AbortSignal ? { signal: deadline } : {})
    return octokit.request(request)
  })
}

const GitHub = Octokit.plugin(withinDeadline, retry, throttling)

/** How many times a rate-limited request is tried again before giving up. */
const RATE_LIMIT_RETRIES = 2

function createGitHubClient(transport: Transport, access: GitHubAccess, work: GitHubWork): GitHubClient {
  // A monotonic clock: the wall clock may jump while the work goes on.
  const deadlineAt = performance.now() + work.deadlineMs
  const timeout = AbortSignal.timeout(Math.max(0, Math.round(work.deadlineMs)))
  const signal = work.cancellable ? AbortSignal.any([timeout, transport.cancelSignal]) : timeout
  let hit: RateLimitHit | undefined
  const retryWithinDeadline =
    (secondary: boolean) =>
    (retryAfter: number, _options: object, _octokit: unknown, retryCount: number): boolean => {
      if (retryCount < RATE_LIMIT_RETRIES && performance.now() + retryAfter * 1000 < deadlineAt) return true
      hit = { secondary, retryAfterS: retryAfter }
      return false
    }
  const fetch = ((url: string, init: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(url, {
      ...init,
      dispatcher: transport.dispatcher,
      signal: AbortSignal.any([signal, AbortSignal.timeout(work.requestTimeoutMs)])
    })) as unknown as typeof globalThis.fetch
  const { log } = access
  const octokit = new GitHub({
    auth: access.token,
    baseUrl: access.apiUrl,
    userAgent: transport.userAgent,
    request: { fetch },
    deadline: signal,
    mayWaitOut: (retryAfterS: number, waited: number) => retryWithinDeadline(true)(retryAfterS, {}, octokit, waited),
    log: { debug: log, info: log, warn: log, error: log },
    throttle: {
      enabled: work.throttled,
      onRateLimit: retryWithinDeadline(false),
      onSecondaryRateLimit: retryWithinDeadline(true)
    },
    retry: { doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451], retries: 2 }
  })
  let requests = 0
  octokit.hook.before('request', () => {
    requests += 1
  })
  return {
    octokit,
    signal,
    installation: isInstallationToken(access.token),
    rateLimitHit: () => hit,
    callCount: () => requests,
    noAnswer: (error) => noAnswerWords(error, transport, access.apiUrl, work.requestTimeoutMs),
    bounded: (pending) => raceAgainst(signal, pending)
  }
}

/** The failure in words when GitHub gave no answer at all: a request Octokit made answered nothing. */
function noAnswerWords(
  error: unknown,
  transport: Pick<Transport, 'proxyFor' | 'redact'>,
  apiUrl: string,
  requestTimeoutMs: number
): string | undefined {
  if (!(error instanceof Error) || ('response' in error && error.response !== undefined)) return undefined
  for (let link: unknown = error; link instanceof Error; link = link.cause) {
    if (link.name === 'TimeoutError')
      return `no complete answer within ${formatDuration(requestTimeoutMs)} (request-timeout)`
  }
  let url: URL
  try {
    url = new URL(apiUrl)
  } catch {
    return undefined
  }
  const fault = networkFaultOf(error, url, transport.proxyFor(url))
  if (fault.kind === 'no connection' && (fault.code === 'ENOTFOUND' || fault.code === 'EAI_AGAIN')) {
    return `the runner could not resolve ${url.hostname} (${fault.code}), a fault of the runner's network, not an answer from GitHub: check the runner's DNS, and on a network that reaches the Internet only through a proxy, HTTPS_PROXY`
  }
  if (fault.kind === 'proxy refused' && fault.status === PROXY_AUTH_REQUIRED) {
    return `${faultWords(fault, 'GitHub', transport.redact)}: put the proxy's user and password in the runner's HTTPS_PROXY (http://user:password@proxy:port)`
  }
  return `${faultWords(fault, 'GitHub', transport.redact)}, so GitHub gave no answer`
}

function raceAgainst<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  const aborted = new Promise<never>((_resolve, reject) => {
    const stop = (): void => {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
    }
    if (signal.aborted) stop()
    else signal.addEventListener('abort', stop, { once: true })
  })
  // Nobody may be listening when the signal aborts after the work is done.
  aborted.catch(() => undefined)
  return Promise.race([work, aborted])
}

/** The seconds a 429 asks to wait, when plugin-throttling does not take it for a rate limit of its own. */
function plainRetryAfter(error: unknown): number | undefined {
  if (httpStatusOf(error) !== 429 || !(error instanceof Error) || /\bsecondary rate\b/i.test(error.message))
    return undefined
  if (responseHeader(error, 'x-ratelimit-remaining') === '0') return undefined
  const seconds = Number(responseHeader(error, 'retry-after'))
  return Number.isSafeInteger(seconds) && seconds >= 0 ? seconds : undefined
}
