// The action's GitHub client for one piece of work, as the rest of the action sees it, and who a token acts as. The
// client itself is built in session.ts, the one place that loads Octokit: a run that needs no GitHub never does.
import type { retry } from '@octokit/plugin-retry'
import type { throttling } from '@octokit/plugin-throttling'
import type { Octokit } from '@octokit/rest'
import type { Transport } from '../transport/transport.ts'
import { forLog } from '../text/untrusted.ts'

/** Octokit with the plugins session.ts builds it with: retries and throttling. */
export type GitHubOctokit = Octokit & ReturnType<typeof retry> & ReturnType<typeof throttling>

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
