// The tracking comment's hidden marker, on its first line: the job and the tracking state, in a format that
// comments written by every earlier version of the action still match.
import { pathSegmentProblem } from '../text/path-segment.ts'
import { type TrackedRequest, type TrackingState, UNKNOWN_JOB } from './tracking-state.ts'

/** How the marker writes UNKNOWN_JOB: `?` is never what encodeURIComponent makes of a job id. */
const UNKNOWN_JOB_MARK = '?'
// The action's first name, kept so that the comments of every earlier version are found.
const PREFIX = '<!-- wait-for-mintlify-agent-job: '
const SUFFIX = ' -->'
/** `<!-- wait-for-mintlify-agent-job: <job id, percent-encoded> [<state, base64url JSON>] -->`, the first line. */
const MARKER = /^<!-- wait-for-mintlify-agent-job: (\S+)(?: ([\w-]+))? -->(?:\r?\n|$)/

/** The marker line for this state. */
export function markerOf(state: TrackingState): string {
  const saved = {
    requests: state.requests,
    ...(state.omitted ? { omitted: state.omitted } : {}),
    ...(state.reportedAt === undefined ? {} : { reported: state.reportedAt })
  }
  const payload = Buffer.from(JSON.stringify(saved), 'utf8').toString('base64url')
  const job = state.job === UNKNOWN_JOB ? UNKNOWN_JOB_MARK : encodeURIComponent(state.job)
  return `${PREFIX}${job} ${payload}${SUFFIX}`
}

/** The state in a comment's marker; undefined when the comment does not start with one. */
export function readMarker(body: string | null | undefined): TrackingState | undefined {
  const match = MARKER.exec(body ?? '')
  if (!match) return undefined
  const [, encodedJob = '', payload] = match
  let job: string
  try {
    job = encodedJob === UNKNOWN_JOB_MARK ? UNKNOWN_JOB : decodeURIComponent(encodedJob)
  } catch {
    return undefined
  }
  if (job !== UNKNOWN_JOB && pathSegmentProblem(job) !== undefined) return undefined
  // A marker without state is from an earlier version of the action, which tracked the job alone.
  return payload === undefined ? { job, requests: [] } : { job, ...readPayload(payload) }
}

function readPayload(payload: string): { requests: TrackedRequest[]; omitted?: number; reportedAt?: number } {
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return { requests: [] }
  }
  if (typeof decoded !== 'object' || decoded === null) return { requests: [] }
  const { requests, omitted, reported } = decoded as Record<string, unknown>
  return {
    requests: Array.isArray(requests) ? requests.filter(isTrackedRequest) : [],
    ...(Number.isSafeInteger(omitted) && Number(omitted) > 0 ? { omitted: Number(omitted) } : {}),
    ...(Number.isSafeInteger(reported) && Number(reported) > 0 ? { reportedAt: Number(reported) } : {})
  }
}

function isTrackedRequest(value: unknown): value is TrackedRequest {
  if (typeof value !== 'object' || value === null) return false
  const request = value as Record<string, unknown>
  return (
    (request['kind'] === 'start' || request['kind'] === 'follow-up') &&
    typeof request['run'] === 'string' &&
    typeof request['attempt'] === 'number' &&
    typeof request['prompt'] === 'string' &&
    typeof request['line'] === 'string' &&
    (request['unsure'] === undefined || typeof request['unsure'] === 'boolean') &&
    (request['project'] === undefined || typeof request['project'] === 'string') &&
    (request['at'] === undefined || Number.isSafeInteger(request['at'])) &&
    (request['step'] === undefined || typeof request['step'] === 'string')
  )
}
