// What a tracking comment remembers: the job, and each request the action sent to it (which run, which attempt,
// which prompt). Follow-ups find the job through it, and a re-run finds the job an earlier attempt started.
import { createHash } from 'node:crypto'

export interface TrackedRequest {
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
}

/** The job of a start that may or may not have created one: its id was never learned. */
export const UNKNOWN_JOB = ''

export interface TrackingState {
  /** The job's id, or UNKNOWN_JOB. */
  readonly job: string
  /** The first request and the latest ones (see MAX_TRACKED_REQUESTS), oldest first. */
  readonly requests: readonly TrackedRequest[]
  /** How many requests between the first and the latest ones were left out. */
  readonly omitted?: number
  /** When the action last wrote this comment (milliseconds since the epoch): which job it reported last. */
  readonly reportedAt?: number
}

/**
 * A comment holds at most 65,536 characters: past this many requests, the oldest follow-ups are dropped (the first
 * prompt stays). A re-run only ever looks for its own run's requests, which are among the latest.
 */
export const MAX_TRACKED_REQUESTS = 50

/** Whether two records name the same request: the same kind, run, attempt, step and prompt. */
export function sameRequest(a: TrackedRequest, b: TrackedRequest): boolean {
  return a.kind === b.kind && a.run === b.run && a.attempt === b.attempt && a.prompt === b.prompt && a.step === b.step
}

/** The state with this request marked as having reached the API. */
export function confirmRequest(state: TrackingState, request: TrackedRequest): TrackingState {
  const { unsure, ...sure } = request
  return { ...state, requests: state.requests.map((listed) => (sameRequest(listed, request) ? sure : listed)) }
}

/** The state without this request: it surely never reached the API, so a re-run may send it. */
export function withdrawRequest(state: TrackingState, request: TrackedRequest): TrackingState {
  return { ...state, requests: state.requests.filter((listed) => !sameRequest(listed, request)) }
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
export function withRequests(state: TrackingState, add: readonly TrackedRequest[]): TrackingState {
  const listed = state.requests
  const requests = [...listed, ...add.filter((request) => !listed.some((old) => sameRequest(old, request)))]
  const excess = requests.length - MAX_TRACKED_REQUESTS
  if (excess <= 0) return { ...state, requests }
  return {
    job: state.job,
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
