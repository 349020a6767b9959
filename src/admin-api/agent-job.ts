// An agent job as the admin API returns it, narrowed from untrusted JSON once, at the edge.
import { pathSegmentProblem } from '../text/path-segment.ts'
import { forLog } from '../text/untrusted-text.ts'
import { checkPrLink, type PullRequestLink } from './pull-request-link.ts'

/** The statuses after which a job no longer changes. */
export const TERMINAL_STATUSES = ['completed', 'archived', 'failed'] as const
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number]

/** An agent job as the admin API returns it, narrowed from untrusted JSON. */
export interface AgentJob {
  readonly id: string | undefined
  /** Trimmed and lower-cased: `active`, a terminal status, or a value the contract does not list yet. */
  readonly status: string
  /** `prLink`, checked. */
  readonly pr: PullRequestLink
  readonly model: string | undefined
  readonly repository: string | undefined
  readonly ref: string | null | undefined
  readonly createdAt: string | undefined
  readonly archivedAt: string | null | undefined
  /** Fields left out because their type was not the contract's, e.g. `"model" (a number)`. */
  readonly ignored: readonly string[]
  /** The body as received (with secrets redacted), for the `job` output. */
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
}

export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function typeName(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/**
 * Narrows a decoded 200 body to an agent job, or says why it is not one. The job is judged only by the fields
 * the action relies on: `status`, `id` when present, and `prLink` when present. A descriptive field of the wrong
 * type is left out and named in `ignored`.
 */
export function parseJob(body: unknown, expected: JobExpectations): ParsedJob {
  if (!isRecord(body)) return { kind: 'invalid', reason: 'the body is not a JSON object' }
  const { status, id, prLink } = body
  if (typeof status !== 'string' || status.trim() === '') {
    return { kind: 'invalid', reason: 'the body has no "status" string' }
  }
  if (id !== undefined && !(typeof id === 'string' || typeof id === 'number')) {
    return { kind: 'invalid', reason: `"id" is ${typeName(id)}, not a string` }
  }
  if (typeof id === 'number' && !Number.isSafeInteger(id)) {
    return { kind: 'invalid', reason: `"id" is a number too large to be exact (${String(id)})` }
  }
  const idProblem = id === undefined ? undefined : pathSegmentProblem(String(id))
  if (idProblem !== undefined) {
    return { kind: 'invalid', reason: `"id" ${idProblem}, so it cannot be passed on` }
  }
  if (expected.jobId === undefined && (id === undefined || String(id).trim() === '')) {
    return { kind: 'invalid', reason: 'it has no "id", so the new job cannot be followed' }
  }
  if (id !== undefined && expected.jobId !== undefined && String(id) !== expected.jobId) {
    return {
      kind: 'invalid',
      reason: `"id" is "${forLog(String(id), 80)}", not "${forLog(expected.jobId, 80)}" (another job's answer)`
    }
  }
  if (prLink !== undefined && prLink !== null && typeof prLink !== 'string') {
    return { kind: 'invalid', reason: `"prLink" is ${typeName(prLink)}, not a string` }
  }

  const ignored: string[] = []
  const text = (record: Record<string, unknown>, name: string, path = name): string | undefined => {
    const value = record[name]
    if (value === undefined || typeof value === 'string') return value
    ignored.push(`"${path}" (${typeName(value)})`)
    return undefined
  }
  const nullableText = (record: Record<string, unknown>, name: string, path = name): string | null | undefined =>
    record[name] === null ? null : text(record, name, path)
  let source: Record<string, unknown> = {}
  if (isRecord(body['source'])) source = body['source']
  else if (body['source'] !== undefined) ignored.push(`"source" (${typeName(body['source'])})`)

  return {
    kind: 'job',
    job: {
      id: id === undefined ? undefined : String(id),
      status: status.trim().toLowerCase(),
      pr: checkPrLink(prLink, expected.githubHosts),
      model: text(body, 'model'),
      repository: text(source, 'repository', 'source.repository'),
      ref: nullableText(source, 'ref', 'source.ref'),
      createdAt: text(body, 'createdAt'),
      archivedAt: nullableText(body, 'archivedAt'),
      ignored,
      body
    }
  }
}
