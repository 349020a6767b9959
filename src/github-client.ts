import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import { Octokit } from '@octokit/rest'
import { type Dispatcher, fetch as undiciFetch } from 'undici'

/**
 * Once the deadline has passed, a failed request is not retried: plugin-retry would otherwise wait and try again
 * (its waits hold the runner), and only then give up. Listed first, so its hook runs before plugin-retry's.
 */
const stopAtDeadline: Parameters<typeof Octokit.plugin>[0] = (octokit, options) => {
  const deadline: unknown = options['deadline']
  octokit.hook.error('request', (error) => {
    if (deadline instanceof AbortSignal && deadline.aborted) throw new Error('the deadline passed', { cause: error })
    throw error
  })
}

const GitHub = Octokit.plugin(stopAtDeadline, retry, throttling)
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
  /** Aborted when the deadline passes: every request and every wait stops there. */
  readonly signal: AbortSignal
  /** The rate limit that made a request give up, if one did. */
  rateLimitHit(): RateLimitHit | undefined
  /**
   * The work, or a rejection as soon as the signal aborts: Octokit's waits between retries do not watch the signal,
   * and a cancelled run must not sit through them.
   */
  bounded<T>(work: Promise<T>): Promise<T>
}

interface GitHubClientOptions {
  readonly token: string
  /** GITHUB_API_URL: api.github.com, or a GitHub Enterprise Server's own API. */
  readonly baseUrl: string
  readonly userAgent: string
  /** The action's one dispatcher, so proxies apply to GitHub as they do to the admin API. */
  readonly dispatcher: Dispatcher
  /** Everything done with this client ends within this long. */
  readonly deadlineMs: number
  /** Aborted when the workflow is cancelled. */
  readonly cancelSignal?: AbortSignal
  /**
   * False for the one edit a cancelled run makes: plugin-throttling spaces every write a second apart in a queue
   * the whole process shares, and that edit has two seconds in all.
   */
  readonly throttled?: boolean
  /** Octokit's own log lines (a failed request, a retry), for the debug log. */
  readonly log: (message: string) => void
}

/** How many times a rate-limited request is tried again before giving up. */
const RATE_LIMIT_RETRIES = 2

/** One Octokit with retries and throttling, every request through undici and bounded by the deadline. */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const deadlineAt = Date.now() + options.deadlineMs
  const signals = [AbortSignal.timeout(options.deadlineMs), ...(options.cancelSignal ? [options.cancelSignal] : [])]
  const signal = AbortSignal.any(signals)
  let hit: RateLimitHit | undefined
  const retryWithinDeadline =
    (secondary: boolean) =>
    (retryAfter: number, _options: object, _octokit: unknown, retryCount: number): boolean => {
      if (retryCount < RATE_LIMIT_RETRIES && Date.now() + retryAfter * 1000 < deadlineAt) return true
      hit = { secondary, retryAfterS: retryAfter }
      return false
    }
  const fetch = ((url: string, init: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(url, { ...init, dispatcher: options.dispatcher, signal })) as unknown as typeof globalThis.fetch
  const octokit = new GitHub({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: options.userAgent,
    request: { fetch },
    deadline: signal,
    log: { debug: options.log, info: options.log, warn: options.log, error: options.log },
    throttle: {
      enabled: options.throttled ?? true,
      onRateLimit: retryWithinDeadline(false),
      onSecondaryRateLimit: retryWithinDeadline(true)
    },
    retry: { doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451], retries: 2 }
  })
  const aborted = new Promise<never>((_resolve, reject) => {
    const stop = (): void => {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
    }
    if (signal.aborted) stop()
    else signal.addEventListener('abort', stop, { once: true })
  })
  // Nobody may be listening when the signal aborts after the work is done.
  aborted.catch(() => undefined)
  return { octokit, signal, rateLimitHit: () => hit, bounded: (work) => Promise.race([work, aborted]) }
}
