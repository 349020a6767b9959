// What a tracking comment remembers, in a hidden marker on its first line: the job, and each request the action
// sent to it (which run, which attempt, which prompt). Follow-ups find the job through it, and a re-run finds the
// job an earlier attempt started.
import { createHash } from 'node:crypto'
import { forLog } from './untrusted-text.ts'

export interface TrackedRequest {
  readonly kind: 'start' | 'follow-up'
  /** GITHUB_RUN_ID of the run that sent it. */
  readonly run: string
  readonly attempt: number
  /** The prompt's hash (see promptHash): the same prompt, sent again, has the same one. */
  readonly prompt: string
  /** The prompt's first line, shortened, for people. */
  readonly line: string
}

export interface TrackingState {
  readonly job: string
  readonly requests: readonly TrackedRequest[]
}

const PREFIX = '<!-- wait-for-mintlify-agent-job: '
const SUFFIX = ' -->'
/** `<!-- wait-for-mintlify-agent-job: <job id, percent-encoded> [<state, base64url JSON>] -->`, the first line. */
const MARKER = /^<!-- wait-for-mintlify-agent-job: (\S+)(?: ([\w-]+))? -->(?:\r?\n|$)/

/** The marker line for this state. */
export function markerOf(state: TrackingState): string {
  const payload = Buffer.from(JSON.stringify({ requests: state.requests }), 'utf8').toString('base64url')
  return `${PREFIX}${encodeURIComponent(state.job)} ${payload}${SUFFIX}`
}

/** The state in a comment's marker; undefined when the comment does not start with one. */
export function readMarker(body: string | null | undefined): TrackingState | undefined {
  const match = MARKER.exec(body ?? '')
  if (!match) return undefined
  const [, encodedJob = '', payload] = match
  let job: string
  try {
    job = decodeURIComponent(encodedJob)
  } catch {
    return undefined
  }
  // A marker without state is from an earlier version of the action, which tracked the job alone.
  return { job, requests: payload === undefined ? [] : readRequests(payload) }
}

function readRequests(payload: string): TrackedRequest[] {
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return []
  }
  const requests = typeof decoded === 'object' && decoded !== null && 'requests' in decoded ? decoded.requests : []
  return Array.isArray(requests) ? requests.filter(isTrackedRequest) : []
}

function isTrackedRequest(value: unknown): value is TrackedRequest {
  if (typeof value !== 'object' || value === null) return false
  const request = value as Record<string, unknown>
  return (
    (request['kind'] === 'start' || request['kind'] === 'follow-up') &&
    typeof request['run'] === 'string' &&
    typeof request['attempt'] === 'number' &&
    typeof request['prompt'] === 'string' &&
    typeof request['line'] === 'string'
  )
}

/** A short, stable fingerprint of a prompt: enough to tell the same prompt sent again, never the prompt itself. */
export function promptHash(prompt: string): string {
  return createHash('sha256').update(prompt, 'utf8').digest('hex').slice(0, 16)
}

/** The prompt's first non-empty line, on one line and shortened. */
export function firstLine(prompt: string, max = 120): string {
  return forLog(prompt.split(/\r?\n/).find((line) => line.trim() !== '') ?? '', max)
}
