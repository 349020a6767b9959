// One Octokit for one piece of GitHub work: retries and throttling from Octokit's own plugins, every request
// through the action's undici dispatcher (so proxies apply), and everything bounded by one deadline; and who the token
// acts as.
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import { Octokit } from '@octokit/rest'
import { setTimeout as delay } from 'node:timers/promises'
import { fetch as undiciFetch } from 'undici'
import { faultWords, networkFaultOf, PROXY_AUTH_REQUIRED, tunnelRefusal } from '../transport/network-fault.ts'
import type { Transport } from '../transport/transport.ts'
import { httpStatusOf, responseHeader } from './fields.ts'
import { formatDuration } from '../text/duration.ts'
import { forLog } from '../text/untrusted.ts'

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
type GitHubOctokit = InstanceType<typeof GitHub>

/** A rate limit GitHub reported that was not waited out, because it reached past the deadline. */
export interface RateLimitHit {
  readonly secondary: boolean
  /** How long GitHub asked to wait, in seconds. */
  readonly retryAfterS: number
}

/** The action's GitHub client for one piece of work, bounded by one deadline. */
export interface GitHubClient {
  readonly octokit: GitHubOctokit
  /** Aborted when the deadline passes (or the run is cancelled, for cancellable work). */
  readonly signal: AbortSignal
  /** Whether its token is an installation token (see isInstallationToken): it acts as a bot. */
  readonly installation: boolean
  /** The rate limit that made a request give up, if one did. */
  rateLimitHit(): RateLimitHit | undefined
  /** How many requests were sent, retries included. */
  callCount(): number
  /**
   * What went wrong, in words, when a request got no answer from GitHub at all (the network, a proxy, request-timeout);
   * undefined when GitHub answered.
   */
  noAnswer(error: unknown): string | undefined
  /**
   * The work, or a rejection as soon as the signal aborts: Octokit's waits between retries do not watch the signal,
   * and a cancelled run must not sit through them.
   */
  bounded<T>(work: Promise<T>): Promise<T>
}

/** Who the client acts as, and where GitHub's API is. */
export interface GitHubAccess {
  readonly token: string
  /** GITHUB_API_URL: api.github.com, or a GitHub Enterprise Server's own API. */
  readonly apiUrl: string
  /** Octokit's own log lines (a failed request, a retry), for the debug log. */
  readonly log: (message: string) => void
}

/** One piece of GitHub work. */
export interface GitHubWork {
  /** Everything done with this client ends within this long. */
  readonly deadlineMs: number
  /** Whether the run's cancellation stops it: reads yes, writes no (a write cut off mid-way may still land). */
  readonly cancellable: boolean
  /**
   * False for the one edit a cancelled run makes: plugin-throttling spaces every write a second apart in a queue
   * the whole process shares, and that edit has four seconds in all.
   */
  readonly throttled: boolean
  /** Each request, from connecting to the last byte, ends within this (request-timeout), and may be tried again. */
  readonly requestTimeoutMs: number
}

/** The access for this token, with Octokit's own log lines (redacted, one line each) sent to `debug`. */
export function githubAccess(
  token: string,
  apiUrl: string,
  transport: Pick<Transport, 'redact'>,
  debug: (message: string) => void
): GitHubAccess {
  return {
    token,
    apiUrl,
    log: (message) => {
      // Octokit's request log names GitHub's request id, or "undefined" when an answer has none.
      const line = message.replace(/ with id undefined\b/, '')
      debug(`GitHub: ${forLog(transport.redact(line), 500)}`)
    }
  }
}

/** How many times a rate-limited request is tried again before giving up. */
const RATE_LIMIT_RETRIES = 2

export function createGitHubClient(transport: Transport, access: GitHubAccess, work: GitHubWork): GitHubClient {
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

/**
 * The login the token acts as, in the form REST gives its comments' author (see ownLogin). GraphQL's `viewer` answers
 * for every kind of token (a user's, a GitHub App's installation token, the workflow's GITHUB_TOKEN), where REST's
 * `GET /user` refuses installation tokens.
 */
export async function loginOf(github: GitHubClient): Promise<string> {
  const answer = await github.octokit.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }')
  const login = answer.viewer?.login
  if (typeof login !== 'string' || login === '') throw new Error('GitHub did not say who the token acts as')
  return ownLogin(login, github.installation)
}

/**
 * Whether a token is an installation token (GitHub's `ghs_` form, or the `v1.` form of older servers): a GitHub App's,
 * or the workflow's GITHUB_TOKEN. It acts as a bot account, never as a person.
 */
export function isInstallationToken(token: string): boolean {
  return token.startsWith('ghs_') || /^v1\.[0-9a-f]{40}$/.test(token)
}

/**
 * The login as REST names the author of what the token writes: GraphQL may name an app `name` where REST names its
 * comments' author `name[bot]`, and an installation token always acts as the bot, never as a user called `name`.
 */
export function ownLogin(viewer: string, installation: boolean): string {
  return installation && !viewer.endsWith('[bot]') ? `${viewer}[bot]` : viewer
}

/**
 * Whether the comment's author is this login (as ownLogin gives it), and of its kind: a bot account for `name[bot]`,
 * a user otherwise. Anyone may register the user `name` of an app, and write the action's marker.
 */
export function isAuthor(author: { login?: string; type?: string } | null | undefined, login: string): boolean {
  if (!author?.login || author.login !== login) return false
  return author.type === (login.endsWith('[bot]') ? 'Bot' : 'User')
}

/** The seconds a 429 asks to wait, when plugin-throttling does not take it for a rate limit of its own. */
function plainRetryAfter(error: unknown): number | undefined {
  if (httpStatusOf(error) !== 429 || !(error instanceof Error) || /\bsecondary rate\b/i.test(error.message))
    return undefined
  if (responseHeader(error, 'x-ratelimit-remaining') === '0') return undefined
  const seconds = Number(responseHeader(error, 'retry-after'))
  return Number.isSafeInteger(seconds) && seconds >= 0 ? seconds : undefined
}
