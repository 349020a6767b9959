export interface PullRequestRef {
  readonly repository: string
  readonly number: number
}

const PULL_PATH = /^\/([^/]+)\/([^/]+)\/pull\/(\d+)\/?$/

/**
 * Reads `owner/name` and the number from a GitHub pull request URL
 * (github.com or a GitHub Enterprise Server host): `https://host/owner/name/pull/123`.
 */
export function parsePullRequestUrl(url: URL): PullRequestRef | undefined {
  const match = PULL_PATH.exec(url.pathname)
  if (!match) return undefined
  const [, owner, name, number] = match
  return { repository: `${decodeURIComponent(owner ?? '')}/${decodeURIComponent(name ?? '')}`, number: Number(number) }
}
