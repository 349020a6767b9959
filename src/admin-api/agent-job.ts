// An agent job as the admin API returns it, narrowed from untrusted JSON once, at the edge. Decisions are made on
// the parsed data as the API sent it; every text kept for showing is redacted here, so nothing past this file can
// show a secret the API echoed.
import type { Redact } from '../text/redact.ts'
import { pathSegmentProblem } from '../text/path-segment.ts'
import { forLog } from '../text/untrusted-text.ts'
import { checkPrLink, type PullRequestLink } from './pull-request-link.ts'

/** The statuses after which a job no longer changes. */
export const TERMINAL_STATUSES = ['completed', 'archived', 'failed'] as const
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number]
/** Every status the API's contract lists. */
const KNOWN_STATUSES: readonly string[] = ['active', ...TERMINAL_STATUSES]

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
  readonly repository: string | undefined
  readonly ref: string | null | undefined
  readonly createdAt: string | undefined
  readonly archivedAt: string | null | undefined
  /** Fields left out because their type was not the contract's, e.g. `"model" (a number)`. */
  readonly ignored: readonly string[]
  /** The body as received, redacted, for the `job` output. */
  readonly body: Record<string, unknown>
}

type ParsedJob =
  { readonly kind: 'job'; readonly job: AgentJob } | { readonly kind: 'invalid'; readonly reason: string }

/** What the job must be: the one asked for, with its pull request judged against these GitHub hosts. */
export interface JobExpectations {
  /** The job asked about; undefined for a job just created, whose answer must then carry its id. */
  readonly jobId: string | undefined
  /** Hosts whose pull request URLs give `pr-number` and `pr-repository`: github.com and the runner's own. */
  readonly githubHosts: ReadonlySet<string>
  /** Replaces secrets in what is kept for showing; none when not given. */
  readonly redact?: Redact
}

export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status)
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
  if (!isRecord(body)) return { kind: 'invalid', reason: 'the body is not a JSON object' }
  const { status, prLink } = body
  if (typeof status !== 'string' || status.trim() === '') {
    return { kind: 'invalid', reason: 'the body has no "status" string' }
  }
  const read = readJobId(body['id'], redact)
  if ('problem' in read) return { kind: 'invalid', reason: read.problem }
  const { id } = read
  const problem = identityProblem(id, expected.jobId, redact)
  if (problem !== undefined) return { kind: 'invalid', reason: problem }
  if (prLink !== undefined && prLink !== null && typeof prLink !== 'string') {
    return { kind: 'invalid', reason: `"prLink" is ${typeName(prLink)}, not a string` }
  }
  const normalized = status.trim().toLowerCase()
  const knownStatus = KNOWN_STATUSES.includes(normalized)
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
  return {
    model: text(body, 'model'),
    repository: text(source, 'repository', 'source.repository'),
    ref: nullableText(source, 'ref', 'source.ref'),
    createdAt: text(body, 'createdAt'),
    archivedAt: nullableText(body, 'archivedAt'),
    ignored,
    body: redactJson(body, redact) as Record<string, unknown>
  }
}

/** A copy of decoded JSON with every string (keys too) redacted. */
function redactJson(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact))
  if (isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactJson(item, redact)]))
  }
  return value
}
