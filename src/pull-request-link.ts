import { httpUrl } from './untrusted-text.ts'

interface PullRequestRef {
  /** `owner/name`. */
  readonly repository: string
  readonly number: number
}

/** A job's `prLink`, checked once where the job is parsed; everything downstream uses this result. */
export type PullRequestLink =
  /** No pull request (yet): the job is active, or the agent changed no files. */
  | { readonly kind: 'none' }
  /** An http(s) URL; `pullRequest` when it is a GitHub pull request's page. */
  | { readonly kind: 'link'; readonly url: URL; readonly pullRequest: PullRequestRef | undefined }
  /** Not an http(s) URL, so it is passed on nowhere. */
  | { readonly kind: 'dropped'; readonly text: string }

export function checkPrLink(text: string | null | undefined): PullRequestLink {
  if (!text) return { kind: 'none' }
  const url = httpUrl(text)
  return url ? { kind: 'link', url, pullRequest: parsePullRequestUrl(url) } : { kind: 'dropped', text }
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
