import { checkPrLink, type PullRequestLink } from './pull-request-link.ts'

/** The statuses after which a job no longer changes. */
export const TERMINAL_STATUSES = ['completed', 'archived', 'failed'] as const
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number]

/** An agent job as the admin API returns it, narrowed from untrusted JSON. */
export interface AgentJob {
  readonly id: string | undefined
  /** `active`, a terminal status, or a value the contract does not list yet. */
  readonly status: string
  /** `prLink`, checked. */
  readonly pr: PullRequestLink
  readonly model: string | undefined
  readonly repository: string | undefined
  readonly ref: string | null | undefined
  readonly createdAt: string | undefined
  readonly archivedAt: string | null | undefined
  /** The body as received, for the `job` output. */
  readonly body: Record<string, unknown>
}

type ParsedJob =
  { readonly kind: 'job'; readonly job: AgentJob } | { readonly kind: 'invalid'; readonly reason: string }

export function isTerminal(status: string): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

type Kind = 'string' | 'nullable string'

const JOB_FIELDS: Record<string, Kind> = {
  id: 'string',
  prLink: 'nullable string',
  model: 'string',
  createdAt: 'string',
  archivedAt: 'nullable string'
}
const SOURCE_FIELDS: Record<string, Kind> = { repository: 'string', ref: 'nullable string' }

/** Names the fields present with a type the contract does not allow (absent fields are tolerated). */
function mistypedFields(record: Record<string, unknown>, fields: Record<string, Kind>, prefix = ''): string[] {
  return Object.entries(fields)
    .filter(([name, kind]) => {
      const value = record[name]
      if (value === undefined || typeof value === 'string') return false
      return !(value === null && kind === 'nullable string')
    })
    .map(([name]) => `"${prefix}${name}"`)
}

/** Narrows a decoded 200 body to an agent job, or says why it is not one. */
export function parseJob(body: unknown): ParsedJob {
  if (!isRecord(body)) return { kind: 'invalid', reason: 'the body is not a JSON object' }
  const { status } = body
  if (typeof status !== 'string' || status.trim() === '') {
    return { kind: 'invalid', reason: 'the body has no "status" string' }
  }
  const source = body['source'] ?? {}
  if (!isRecord(source)) return { kind: 'invalid', reason: '"source" is not an object' }
  const mistyped = [...mistypedFields(body, JOB_FIELDS), ...mistypedFields(source, SOURCE_FIELDS, 'source.')]
  if (mistyped.length > 0) return { kind: 'invalid', reason: `${mistyped.join(', ')} has the wrong type` }

  // Every field read below was checked above.
  return {
    kind: 'job',
    job: {
      id: body['id'] as string | undefined,
      status: status.trim(),
      pr: checkPrLink(body['prLink'] as string | null | undefined),
      model: body['model'] as string | undefined,
      repository: source['repository'] as string | undefined,
      ref: source['ref'] as string | null | undefined,
      createdAt: body['createdAt'] as string | undefined,
      archivedAt: body['archivedAt'] as string | null | undefined,
      body
    }
  }
}
