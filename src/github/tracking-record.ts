// What a tracking comment remembers, in a hidden marker on its first line: the job, and each request the action sent
// to it (which run, which attempt, which prompt). Follow-ups find the job through it, and a re-run finds the job an
// earlier attempt started. The marker's format matches the comments of every earlier version of the action.
import { createHash } from 'node:crypto'
import { pathSegmentProblem } from '../text/untrusted.ts'

const SOURCE_ENDS = ['merged', 'closed', 'found-closed'] as const
export type SourceEnd = (typeof SOURCE_ENDS)[number]

export interface Submission {
  readonly kind: 'start' | 'follow-up'
  /** GITHUB_RUN_ID of the run that sent it. */
  readonly run: string
  readonly attempt: number
  /** The prompt's hash (see promptHash): the same prompt, sent again, has the same one. */
  readonly prompt: string
  /** The prompt's first line, shortened, for people. */
  readonly line: string
  /** It may or may not have reached the API (a 5xx, a reset, a timeout, a cancel mid-request): never sent again. */
  readonly unsure?: boolean
  /** The project it was sent to: one issue may track jobs of several projects (a matrix, say). */
  readonly project?: string
  /** When it was sent (milliseconds since the epoch). */
  readonly at?: number
  /**
   * The step that sent it (`GITHUB_JOB/GITHUB_ACTION`): two steps of one job that send the same prompt are two
   * requests. A request recorded before steps were matches any step.
   */
  readonly step?: string
  /** With `mode: pair`: the source pull request's head commit this prompt described. */
  readonly head?: string
  /** A person asked for it (`command` or `label`): what the sweep names the docs pull request's origin by. */
  readonly asked?: true
}

/** With `mode: batch`: the commits and pull requests a batch covers, and which of them were sent. */
export interface BatchPlan {
  readonly window: BatchWindow
  /** The pull requests sent to the agent. */
  readonly included: readonly { readonly number: number; readonly url: string }[]
  /** The pull requests the gates left out: judged, listed, not sent. */
  readonly leftOut: readonly { readonly number: number; readonly reason: string }[]
}

/** The job of a start that may or may not have created one: its id was never learned. */
export const UNKNOWN_JOB = ''

export interface TrackingState {
  /** The job's id, or UNKNOWN_JOB. */
  readonly job: string
  /** The first request and the latest ones (see MAX_TRACKED_REQUESTS), oldest first. */
  readonly requests: readonly Submission[]
  /** How many requests between the first and the latest ones were left out. */
  readonly omitted?: number
  /** When the action last wrote this comment (milliseconds since the epoch): which job it reported last. */
  readonly reportedAt?: number
  /**
   * The status the job ended with after the latest request, as the action last saw it: `completed`, `failed`,
   * `archived`. A request sent to the job takes it away until the job ends again.
   */
  readonly ended?: string
  /** The docs pull request the job opened, once it has. */
  readonly pr?: string
  /** With `mode: pair`: the earlier docs pull request this job's replaces. */
  readonly supersedes?: string
  /**
   * With `mode: pair`: how the source pull request ended, once the action has told its docs pull request: `closed` when
   * the action closed it, `found-closed` when it was closed (or merged) already, by someone else, and left as it was.
   */
  readonly source?: SourceEnd
  /** With `mode: batch`: the commits and the pull requests the batch covers. */
  readonly batch?: BatchWindow
}

/** What one batch covers: the commits after `from` up to `to` on the branch, and the pull requests merged there. */
export interface BatchWindow {
  /** The commit the batch starts after (the cursor it started from); empty for a first batch, which starts at a date. */
  readonly from: string
  /** The commit it covers up to: the cursor once its job completes. */
  readonly to: string
  /** When `to` was committed (milliseconds since the epoch): where the next batch starts if history is rewritten. */
  readonly toDate: number
  /** The pull requests it covers, by number. */
  readonly pulls: readonly number[]
  /** Those of them the gates left out: covered, not sent. */
  readonly skipped?: readonly number[]
}

/**
 * A comment holds at most 65,536 characters: past this many requests, the oldest follow-ups are dropped (the first
 * prompt stays). A re-run only ever looks for its own run's requests, which are among the latest.
 */
export const MAX_SUBMISSIONS = 50

/** Whether two records name the same request: the same kind, run, attempt, step and prompt. */
export function sameSubmission(a: Submission, b: Submission): boolean {
  return a.kind === b.kind && a.run === b.run && a.attempt === b.attempt && a.prompt === b.prompt && a.step === b.step
}

/** The state with this request marked as having reached the API. */
export function confirmSubmission(state: TrackingState, request: Submission): TrackingState {
  const { unsure, ...sure } = request
  return { ...state, requests: state.requests.map((listed) => (sameSubmission(listed, request) ? sure : listed)) }
}

/** The state without this request: it surely never reached the API, so a re-run may send it. */
export function withdrawSubmission(state: TrackingState, request: Submission): TrackingState {
  return { ...state, requests: state.requests.filter((listed) => !sameSubmission(listed, request)) }
}

/** The state without its oldest follow-up (the first prompt stays), counted as left out; undefined when none is left. */
export function withoutOldestFollowUp(state: TrackingState): TrackingState | undefined {
  if (state.requests.length < 2) return undefined
  return {
    ...state,
    requests: [...state.requests.slice(0, 1), ...state.requests.slice(2)],
    omitted: (state.omitted ?? 0) + 1
  }
}

/** When the action last reported this job, by its own record (a person's edit does not change it). */
export function lastReported(state: TrackingState): number {
  return Math.max(state.reportedAt ?? 0, ...state.requests.map((request) => request.at ?? 0))
}

/** The state with these requests added (one already listed is not added twice), kept within the comment's size. */
export function withRequests(state: TrackingState, add: readonly Submission[]): TrackingState {
  const listed = state.requests
  const requests = [...listed, ...add.filter((request) => !listed.some((old) => sameSubmission(old, request)))]
  const excess = requests.length - MAX_SUBMISSIONS
  if (excess <= 0) return { ...state, requests }
  return {
    ...state,
    requests: [...requests.slice(0, 1), ...requests.slice(1 + excess)],
    omitted: (state.omitted ?? 0) + excess
  }
}

/** Whether the comment tracks a job of this project (a marker from before projects were recorded is taken as one). */
export function tracksProject(state: TrackingState, projectId: string): boolean {
  return state.requests.every((request) => request.project === undefined || request.project === projectId)
}

/** A short, stable fingerprint of a prompt: enough to tell the same prompt sent again, never the prompt itself. */
export function promptHash(prompt: string): string {
  return createHash('sha256').update(prompt, 'utf8').digest('hex').slice(0, 16)
}

/** How the marker writes UNKNOWN_JOB: `?` is never what encodeURIComponent makes of a job id. */
const UNKNOWN_JOB_MARK = '?'
// The action's first name, kept so that the comments of every earlier version are found.
const PREFIX = '<!-- wait-for-mintlify-agent-job: '
const SUFFIX = ' -->'
/** `<!-- wait-for-mintlify-agent-job: <job id, percent-encoded> [<state, base64url JSON>] -->`, the first line. */
const MARKER = /^<!-- wait-for-mintlify-agent-job: (\S+)(?: ([\w-]+))? -->(?:\r?\n|$)/

/** The marker line for this state. */
export function markerOf(state: TrackingState): string {
  const { job, requests, omitted, reportedAt, ...more } = state
  const saved = {
    requests,
    ...(omitted ? { omitted } : {}),
    ...(reportedAt === undefined ? {} : { reported: reportedAt }),
    ...more
  }
  const payload = Buffer.from(JSON.stringify(saved), 'utf8').toString('base64url')
  const mark = job === UNKNOWN_JOB ? UNKNOWN_JOB_MARK : encodeURIComponent(job)
  return `${PREFIX}${mark} ${payload}${SUFFIX}`
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

/** The state a marker's payload holds; whatever is not of its type is left out (anyone can write a marker). */
function readPayload(payload: string): Omit<TrackingState, 'job'> {
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return { requests: [] }
  }
  if (typeof decoded !== 'object' || decoded === null) return { requests: [] }
  const { requests, omitted, reported, ended, pr, supersedes, source, batch } = decoded as Record<string, unknown>
  const text = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' && value.length <= 2000 ? value : undefined
  const count = (value: unknown): number | undefined =>
    Number.isSafeInteger(value) && Number(value) > 0 ? Number(value) : undefined
  return {
    requests: Array.isArray(requests) ? requests.filter(isTrackedRequest) : [],
    ...optional('omitted', count(omitted)),
    ...optional('reportedAt', count(reported)),
    ...optional('ended', text(ended)),
    ...optional('pr', text(pr)),
    ...optional('supersedes', text(supersedes)),
    ...optional<'source', SourceEnd>(
      'source',
      SOURCE_ENDS.find((end) => end === source)
    ),
    ...optional('batch', batchOf(batch))
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}

const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

function batchOf(value: unknown): BatchWindow | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { from, to, toDate, pulls, skipped } = value as Record<string, unknown>
  if (typeof from !== 'string' || (from !== '' && !COMMIT.test(from))) return undefined
  if (typeof to !== 'string' || !COMMIT.test(to) || !Number.isSafeInteger(toDate)) return undefined
  const numbers = (list: unknown): list is number[] =>
    Array.isArray(list) && list.every((pull) => Number.isSafeInteger(pull) && Number(pull) > 0)
  if (!numbers(pulls)) return undefined
  const left = numbers(skipped) && skipped.length > 0 ? { skipped } : {}
  return { from, to, toDate: Number(toDate), pulls, ...left }
}

function isTrackedRequest(value: unknown): value is Submission {
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
    (request['step'] === undefined || typeof request['step'] === 'string') &&
    (request['head'] === undefined || (typeof request['head'] === 'string' && COMMIT.test(request['head']))) &&
    (request['asked'] === undefined || request['asked'] === true)
  )
}

/** GitHub refuses a comment longer than this. */
export const MAX_COMMENT_LENGTH = 65_536

/**
 * The comment within the size GitHub allows, whatever the length of the ids and prompts: the oldest follow-ups are
 * left out (and counted) until it fits. Undefined when even the first prompt alone does not fit.
 */
export function fitComment(
  state: TrackingState,
  render: (state: TrackingState) => string
): { readonly body: string; readonly state: TrackingState } | undefined {
  for (let fitting: TrackingState | undefined = state; fitting; fitting = withoutOldestFollowUp(fitting)) {
    const body = `${markerOf(fitting)}\n${render(fitting)}`
    if (body.length <= MAX_COMMENT_LENGTH) return { body, state: fitting }
  }
  return undefined
}

/** Whether a comment found on the issue is the one a failed post was making: the same job, or the same pending start. */
export function sameComment(found: TrackingState, posted: TrackingState): boolean {
  if (found.job !== posted.job) return false
  if (posted.job !== UNKNOWN_JOB) return true
  return posted.requests.every((request) => found.requests.some((listed) => sameSubmission(listed, request)))
}

/**
 * The state to write over a comment that another run may have edited since this one read it: every request as the
 * comment holds it now (`stored`), but this run's own (`mine`), which `ours` holds as they are now (a withdrawn one
 * gone, a sent one confirmed); in the comment's order, this run's new ones last. Another run's record is never
 * overwritten, nor one it withdrew brought back.
 */
export function mergeRecords(stored: TrackingState, ours: TrackingState, mine: readonly Submission[]): TrackingState {
  const isMine = (request: Submission): boolean => mine.some((own) => sameSubmission(own, request))
  const kept = stored.requests.flatMap((request) => {
    if (!isMine(request)) return [request]
    return ours.requests.filter((own) => sameSubmission(own, request))
  })
  const added = ours.requests.filter((own) => isMine(own) && !kept.some((listed) => sameSubmission(listed, own)))
  const omitted = Math.max(stored.omitted ?? 0, ours.omitted ?? 0)
  const { omitted: _ours, ...rest } = ours
  return withRequests({ ...rest, ...(omitted > 0 ? { omitted } : {}), requests: [] }, [...kept, ...added])
}
