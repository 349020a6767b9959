// A preview build's status as the admin API returns it (`GET /v1/project/update-status/{statusId}`), narrowed from
// untrusted JSON. No field is marked required; only `status` decides anything.
import type { Redact } from '../text/redact.ts'
import { isRecord } from './agent-job.ts'

/** The statuses after which a build no longer changes. */
const ENDED = ['success', 'failure'] as const

export interface PreviewBuild {
  /** Trimmed and lower-cased: `queued`, `in_progress`, `success`, `failure`, or (redacted) one nobody listed. */
  readonly status: string
  /** The build's one-sentence summary, redacted. */
  readonly summary: string | undefined
  /** The build's log lines, redacted. */
  readonly logs: readonly string[]
}

export function buildEnded(build: PreviewBuild): build is PreviewBuild & { status: (typeof ENDED)[number] } {
  return (ENDED as readonly string[]).includes(build.status)
}

export function parsePreviewBuild(body: unknown, redact: Redact): PreviewBuild | undefined {
  if (!isRecord(body) || typeof body['status'] !== 'string' || body['status'].trim() === '') return undefined
  const status = body['status'].trim().toLowerCase()
  const known = ['queued', 'in_progress', ...ENDED].includes(status)
  const summary = body['summary']
  const logs = Array.isArray(body['logs']) ? body['logs'].filter((line) => typeof line === 'string') : []
  return {
    status: known ? status : redact(status),
    summary: typeof summary === 'string' && summary.trim() !== '' ? redact(summary) : undefined,
    logs: logs.map(redact)
  }
}
