import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
import { Octokit } from '@octokit/rest'
import { type Dispatcher, fetch as undiciFetch } from 'undici'

const GitHub = Octokit.plugin(retry, throttling)
export type GitHubClient = InstanceType<typeof GitHub>

interface GitHubClientOptions {
  readonly token: string
  /** GITHUB_API_URL: api.github.com, or a GitHub Enterprise Server's own API. */
  readonly baseUrl: string
  readonly userAgent: string
  /** The action's one dispatcher, so proxies apply to GitHub as they do to the admin API. */
  readonly dispatcher: Dispatcher
}

/** How many times a rate-limited request is tried again before giving up. */
const RATE_LIMIT_RETRIES = 2
/** A wait longer than this for a rate limit is not worth holding the runner for. */
const LONGEST_RATE_LIMIT_WAIT_S = 60

/** The action's one GitHub REST client: retries, throttling, and every request through undici. */
export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const retryRateLimited = (retryAfter: number, _options: object, _octokit: unknown, retryCount: number): boolean =>
    retryCount < RATE_LIMIT_RETRIES && retryAfter <= LONGEST_RATE_LIMIT_WAIT_S
  const fetch = ((url: string, init: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(url, { ...init, dispatcher: options.dispatcher })) as unknown as typeof globalThis.fetch
  return new GitHub({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: options.userAgent,
    request: { fetch },
    throttle: { onRateLimit: retryRateLimited, onSecondaryRateLimit: retryRateLimited },
    retry: { doNotRetry: [400, 401, 403, 404, 410, 422, 451] }
  })
}
