import { httpUrl, shownHttpUrl } from '../text/untrusted-text.ts'

interface PullRequestRef {
  /** `owner/name`. */
  readonly repository: string
  readonly number: number
}

/** A job's `prLink`, checked once where the job is parsed; everything downstream uses this result. */
export type PullRequestLink =
  /** No pull request (yet): the job is active, or the agent changed no files. */
  | { readonly kind: 'none' }
  /** An http(s) URL; `pullRequest` when it is a pull request's page on a GitHub host. */
  | { readonly kind: 'link'; readonly url: URL; readonly pullRequest: PullRequestRef | undefined }
  /** Not an http(s) URL that can be shown (see shownHttpUrl), so it is passed on nowhere. */
  | { readonly kind: 'dropped'; readonly text: string }

export function checkPrLink(
  text: string | null | undefined,
  githubHosts: ReadonlySet<string>,
  redact: (text: string) => string
): PullRequestLink {
  if (!text) return { kind: 'none' }
  const url = shownHttpUrl(text, redact)
  if (!url) return { kind: 'dropped', text: redact(text) }
  return {
    kind: 'link',
    url,
    pullRequest: githubHosts.has(url.host.toLowerCase()) ? parsePullRequestPath(url.pathname) : undefined
  }
}

/** github.com, and the host of the runner's own GitHub (GITHUB_SERVER_URL) for GitHub Enterprise Server. */
export function githubHosts(serverUrl: string | undefined): ReadonlySet<string> {
  const hosts = new Set(['github.com'])
  const server = httpUrl(serverUrl)
  if (server) hosts.add(server.host.toLowerCase())
  return hosts
}

const PULL_PATH = /^\/([^/]+)\/([^/]+)\/pull\/([1-9]\d*)\/?$/

/** `owner/name` and the number from a pull request's path, `/owner/name/pull/123`; undefined for anything else. */
function parsePullRequestPath(path: string): PullRequestRef | undefined {
  const match = PULL_PATH.exec(path)
  if (!match) return undefined
  const [, owner = '', name = '', digits = ''] = match
  const number = Number(digits)
  if (!Number.isSafeInteger(number)) return undefined
  const [ownerName, repoName] = [safeDecode(owner), safeDecode(name)]
  if (!ownerName || !repoName || !/^[\w.-]+$/.test(ownerName) || !/^[\w.-]+$/.test(repoName)) return undefined
  return { repository: `${ownerName}/${repoName}`, number }
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}
