// Who the token acts as, and whether a comment was written by it: the marker and the author together identify the
// action's own comments.
import type { GitHubClient } from './octokit-client.ts'

/**
 * The login the token acts as. GraphQL's `viewer` answers for every kind of token (a user's, a GitHub App's
 * installation token, the workflow's GITHUB_TOKEN), where REST's `GET /user` refuses installation tokens.
 */
export async function loginOf(github: GitHubClient): Promise<string> {
  const answer = await github.octokit.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }')
  const login = answer.viewer?.login
  if (typeof login !== 'string' || login === '') throw new Error('GitHub did not say who the token acts as')
  return login
}

/**
 * Whether the comment's author is this login. GraphQL names an app `name` where REST names its comments' author
 * `name[bot]`; the two forms are taken as one only for a bot account, since anyone may register the user `name`.
 */
export function isAuthor(author: { login?: string; type?: string } | null | undefined, login: string): boolean {
  if (!author?.login) return false
  if (author.login === login) return true
  const bot = author.type === 'Bot'
  return bot && (author.login === `${login}[bot]` || `${author.login}[bot]` === login)
}
