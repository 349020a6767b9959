// An agent job as the admin API returns it, narrowed from untrusted JSON once, at the edge. Decisions are made on
// the parsed data as the API sent it; every text kept for showing is redacted here, so nothing past this file can
// show a secret the API echoed.
import { isTerminal } from '../text/outcome.ts'
import { type Redact, redactedDeep } from '../text/redact.ts'
import { type CheckedUrl, checkShownUrl, forLog, httpUrl, pathSegmentProblem } from '../text/untrusted.ts'

export interface AgentJob {
  /** Exactly as the API gave it: an id is never redacted (it would stop naming the job), and one holding a secret is refused. */
  readonly id: string | undefined
  /** Trimmed and lower-cased: `active`, a terminal status, or (redacted) a status the contract does not list. */
  readonly status: string
  /** Whether `status` is one the contract lists. */
  readonly knownStatus: boolean
  /** `prLink`, checked. */
  readonly pr: PullRequestLink
  readonly model: string | undefined
  /** `source.repository`, redacted, for showing as text. */
  readonly repository: string | undefined
  /** `source.repository` checked as a URL to pass on (the `docs-repository` output); undefined when there is none. */
  readonly repositoryUrl: CheckedUrl | undefined
  readonly ref: string | null | undefined
  readonly createdAt: string | undefined
  readonly archivedAt: string | null | undefined
  /** Fields left out because their type was not the contract's, e.g. `"model" (a number)`. */
  readonly ignored: readonly string[]
  /** The body as received, redacted, for the `job` output. */
  readonly body: Record<string, unknown>
}

type ParsedJob =
  { readonly kind: 'job'; readonly job: AgentJob } | { readonly kind: 'not a job'; readonly reason: string }

/** What the job must be: the one asked for, with its pull request judged against these GitHub hosts. */
export interface JobExpectations {
  /** The job asked about; undefined for a job just created, whose answer must then carry its id. */
  readonly jobId: string | undefined
  /** Hosts whose pull request URLs give `pr-number` and `pr-repository`: github.com and the runner's own. */
  readonly githubHosts: ReadonlySet<string>
  /** Replaces secrets in what is kept for showing; none when not given. */
  readonly redact?: Redact
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * A job's `id` as a string (undefined when absent), or why it cannot be taken. An id is used in request paths and
 * outputs exactly as given, so it must be one plain path segment, exact, and hold no secret.
 */
export function readJobId(
  value: unknown,
  redact: Redact
): { readonly id: string | undefined } | { readonly problem: string } {
  if (value === undefined) return { id: undefined }
  if (typeof value !== 'string' && typeof value !== 'number')
    return { problem: `"id" is ${typeName(value)}, not a string` }
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    return { problem: `"id" is a number too large to be exact (${String(value)})` }
  }
  const id = String(value)
  const problem = pathSegmentProblem(id)
  if (problem !== undefined) return { problem: `"id" ${problem}, so it cannot be passed on` }
  if (redact(id) !== id) return { problem: '"id" holds a secret' }
  return { id }
}

/**
 * Narrows a decoded 2xx body to an agent job, or says why it is not one. The job is judged only by the fields the
 * action relies on: `status`, `id` when present, and `prLink` when present. A descriptive field of the wrong type is
 * left out and named in `ignored`.
 */
export function parseJob(body: unknown, expected: JobExpectations): ParsedJob {
  const redact = expected.redact ?? ((text: string) => text)
  if (!isRecord(body)) return { kind: 'not a job', reason: 'the body is not a JSON object' }
  const { status, prLink } = body
  if (typeof status !== 'string' || status.trim() === '') {
    return { kind: 'not a job', reason: 'the body has no "status" string' }
  }
  const read = readJobId(body['id'], redact)
  if ('problem' in read) return { kind: 'not a job', reason: read.problem }
  const { id } = read
  const problem = identityProblem(id, expected.jobId, redact)
  if (problem !== undefined) return { kind: 'not a job', reason: problem }
  if (prLink !== undefined && prLink !== null && typeof prLink !== 'string') {
    return { kind: 'not a job', reason: `"prLink" is ${typeName(prLink)}, not a string` }
  }
  const normalized = status.trim().toLowerCase()
  const knownStatus = normalized === 'active' || isTerminal(normalized)
  return {
    kind: 'job',
    job: {
      id,
      // A listed status is one of four words; any other may hold anything the API echoed.
      status: knownStatus ? normalized : redact(normalized),
      knownStatus,
      pr: checkPrLink(prLink, expected.githubHosts, redact),
      ...descriptiveFields(body, redact)
    }
  }
}

/** An answer about a job must name the job asked about; a new job's answer must name the new job. */
export function identityProblem(id: string | undefined, jobId: string | undefined, redact: Redact): string | undefined {
  if (jobId === undefined && (id === undefined || id.trim() === '')) {
    return 'it has no "id", so the new job cannot be followed'
  }
  if (id !== undefined && jobId !== undefined && id !== jobId) {
    return `"id" is "${forLog(redact(id), 80)}", not "${forLog(jobId, 80)}" (another job's answer)`
  }
  return undefined
}

/** The fields the action only shows, redacted; a field of the wrong type is left out and named. */
function descriptiveFields(body: Record<string, unknown>, redact: Redact) {
  const ignored: string[] = []
  const text = (record: Record<string, unknown>, name: string, path = name): string | undefined => {
    const value = record[name]
    if (value === undefined) return undefined
    if (typeof value === 'string') return redact(value)
    ignored.push(`"${path}" (${typeName(value)})`)
    return undefined
  }
  const nullableText = (record: Record<string, unknown>, name: string, path = name): string | null | undefined =>
    record[name] === null ? null : text(record, name, path)
  let source: Record<string, unknown> = {}
  if (isRecord(body['source'])) source = body['source']
  else if (body['source'] !== undefined) ignored.push(`"source" (${typeName(body['source'])})`)
  const model = text(body, 'model')
  const repository = text(source, 'repository', 'source.repository')
  return {
    model,
    repository,
    repositoryUrl: repository ? checkShownUrl(repository, redact) : undefined,
    ref: nullableText(source, 'ref', 'source.ref'),
    createdAt: text(body, 'createdAt'),
    archivedAt: nullableText(body, 'archivedAt'),
    ignored,
    body: redactedDeep(body, redact) as Record<string, unknown>
  }
}

interface PullRequestRef {
  /** `owner/name`. */
  readonly repository: string
  readonly owner: string
  readonly repo: string
  readonly number: number
}

/** A job's `prLink`, checked once where the job is parsed; everything downstream uses this result. */
export type PullRequestLink =
  /** No pull request (yet): the job is active, or the agent changed no files. */
  | { readonly kind: 'none' }
  /** An http(s) URL; `pullRequest` when it is a pull request's page on a GitHub host. */
  | { readonly kind: 'link'; readonly url: URL; readonly pullRequest: PullRequestRef | undefined }
  /** Not an http(s) URL that can be shown (see checkShownUrl), so it is passed on nowhere. */
  | { readonly kind: 'dropped'; readonly text: string; readonly why: CheckedUrl & { kind: 'dropped' } }

export function checkPrLink(
  text: string | null | undefined,
  githubHosts: ReadonlySet<string>,
  redact: (text: string) => string
): PullRequestLink {
  if (!text) return { kind: 'none' }
  const checked = checkShownUrl(text, redact)
  if (checked.kind === 'dropped') return { kind: 'dropped', text: redact(text), why: checked }
  const { url } = checked
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
  return { repository: `${ownerName}/${repoName}`, owner: ownerName, repo: repoName, number }
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}
