// What the step does with a stream of changes: one job for this run (`single`), one docs pull request kept in step
// with each code pull request (`pair`), or one job for everything merged since the last good run (`batch`); the docs
// pull request's own token, the check on the code change, and the files a docs pull request may touch.
import { eventLabel, PULL_EVENTS, REQUEST_EVENTS } from '../runner/events.ts'
import { readGitHubToken } from './credentials.ts'
import { type PathFilter, readPatterns } from './gate-settings.ts'
import type { InputReader } from './input-reader.ts'
import { docsTokenProblem, readSweepSettings, type SweepSettings } from './sweep-settings.ts'
import { type GroundingSettings, readGroundingSettings } from './grounding-settings.ts'

import { DAY_MS, parseDuration } from '../text/duration.ts'

export const MODES = ['single', 'pair', 'batch', 'sweep'] as const
export type Mode = (typeof MODES)[number]

export interface ModeSettings {
  readonly mode: Mode
  /** With `mode: pair`. */
  readonly pair: {
    /** Draft pull requests get a docs pull request too. */
    readonly drafts: boolean
    /** The label a docs pull request gets once its source pull request is merged; undefined for none. */
    readonly mergedLabel: string | undefined
    /** Once the code pull request merges, merge its docs pull request too when approved, mergeable and green. */
    readonly mergeApproved: boolean
  }
  /** A token for the docs repository (masked); '' to use `github-token` where the docs are the workflow's own. */
  readonly docsToken: string
  /** The check run on the head commit the run describes; undefined for none. */
  readonly check: { readonly name: string } | undefined
  /** The files a docs pull request may touch; undefined: not checked. */
  readonly docsPaths: PathFilter | undefined
  /** Whether the names a docs pull request adds are checked against the code. */
  readonly grounding: GroundingSettings
  /** With `mode: batch`. */
  readonly batch: Batching
  /** Requests from people: a comment command, a label. */
  readonly requests: RequestSettings
  /** With `mode: sweep`. */
  readonly sweep: SweepSettings
}

/** The repository roles, least first: who may ask is at least `command-permission`. */
export const ROLES = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const
export type Role = (typeof ROLES)[number]
const ASKING_ROLES: readonly Role[] = ['triage', 'write', 'maintain', 'admin']

export interface RequestSettings {
  /** The word a comment's first line starts with to ask (`/docs`); undefined: comments ask nothing. */
  readonly command: string | undefined
  /** The least role on the repository a person needs to ask. */
  readonly permission: Role
  /** The label whose adding asks; undefined: labels ask nothing. */
  readonly label: string | undefined
  /** Take the label off again once asked, so that adding it again asks again. */
  readonly labelRemove: boolean
}

/** Whether `role` is at least `needed`. */
export function mayAsk(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed)
}

/** Whether people can ask: a command or a label is set. */
export function takesRequests(requests: RequestSettings): boolean {
  return requests.command !== undefined || requests.label !== undefined
}

/** Where a first batch starts, with no earlier one to go on from. */
export type BatchStart =
  | { readonly kind: 'date'; readonly at: number }
  | { readonly kind: 'ago'; readonly ms: number }
  | { readonly kind: 'commit'; readonly sha: string }

export interface Batching {
  /** The branch the pull requests are merged into; undefined: the repository's default branch. */
  readonly branch: string | undefined
  /** The most pull requests one batch covers: the rest wait for the next run. */
  readonly limit: number
  /** The label of the digest issue that keeps the batches' records, when `issue-number` names none. */
  readonly digestLabel: string
  readonly since: BatchStart
  /** A one-line comment on each covered pull request, linking the docs pull request. */
  readonly notify: boolean
}

/** The events a sweep runs on: a schedule, or by hand. */
const SWEEP_EVENTS = new Set(['schedule', 'workflow_dispatch'])

/**
 * Why this run's event (or, for a sweep, its repository, GITHUB_REPOSITORY) does not go with the mode, before any
 * request; undefined when it does.
 */
export function eventProblem(modes: ModeSettings, eventName: string, repository = ''): string | undefined {
  if (modes.mode === 'sweep') {
    if (!SWEEP_EVENTS.has(eventName)) {
      return `"mode: sweep" looks over every open agent pull request at once, so it runs on schedule or workflow_dispatch events; this run's event is "${eventLabel(eventName)}". Run it on: schedule (weekly, say) and workflow_dispatch.`
    }
    return docsTokenProblem(modes.sweep, modes.docsToken, repository)
  }
  if (modes.mode !== 'pair' || PULL_EVENTS.has(eventName)) return undefined
  if (takesRequests(modes.requests) && REQUEST_EVENTS.has(eventName)) return undefined
  return `"mode: pair" keeps a docs pull request in step with a code pull request, so it runs on pull_request or pull_request_target events; this run's event is "${eventLabel(eventName)}". Run it on: pull_request with types [opened, reopened, ready_for_review, synchronize, closed].`
}

/** `prompt` and `jobId` as read, for what a mode allows. */
export function readModeSettings(reader: InputReader, request: { readonly jobId: string | undefined }): ModeSettings {
  const given = reader.text('mode').toLowerCase() || 'single'
  const mode = MODES.find((candidate) => candidate === given)
  if (mode === undefined)
    reader.problem(
      `Input "mode" must be ${MODES.slice(0, -1).join(', ')} or ${MODES.at(-1) ?? ''}; got "${reader.text('mode')}".`
    )
  if (mode === 'pair' && request.jobId !== undefined) {
    reader.problem(
      'Input "job-id" does not go with "mode: pair": the job is the one recorded on the pull request, and each event of the pull request starts it or follows it up.'
    )
  }
  const checkText = reader.text('check').toLowerCase()
  const check = checkText === '' ? mode === 'pair' : reader.boolean('check')
  const checkName = reader.text('check-name') || 'Mintlify docs'
  const mergedLabel = labelName(reader, 'merged-label')
  if (mode === 'batch' && request.jobId !== undefined) {
    reader.problem(
      'Input "job-id" does not go with "mode: batch": each batch starts its own job, or waits for the one a batch before it left running.'
    )
  }
  return {
    mode: mode ?? 'single',
    batch: readBatching(reader),
    pair: {
      drafts: reader.boolean('pair-drafts'),
      mergedLabel: mergedLabel === '' ? undefined : mergedLabel,
      mergeApproved: reader.boolean('merge-approved')
    },
    docsToken: readGitHubToken(reader, false, 'docs-token'),
    check: check ? { name: checkName } : undefined,
    docsPaths: readPatterns(reader, 'docs-paths'),
    grounding: readGroundingSettings(reader),
    requests: readRequestSettings(reader),
    sweep: readSweepSettings(reader)
  }
}

/** `command`, `command-permission`, `label` and `label-remove`. */
export function readRequestSettings(reader: InputReader): RequestSettings {
  const command = reader.text('command')
  if (command !== '' && !/^[^\s@]\S{0,39}$/.test(command)) {
    reader.problem(
      `Input "command" must be one word of at most 40 characters that does not start with @ (a mention notifies that name, and @mintlify is Mintlify's own app): such as /docs; got "${command}".`
    )
  }
  const permissionText = reader.text('command-permission').toLowerCase() || 'write'
  const permission = ASKING_ROLES.find((role) => role === permissionText)
  if (permission === undefined) {
    reader.problem(
      `Input "command-permission" must be ${ASKING_ROLES.join(', ')}; got "${reader.text('command-permission')}".`
    )
  }
  const label = labelName(reader, 'label')
  return {
    command: command === '' ? undefined : command,
    permission: permission ?? 'write',
    label: label === '' ? undefined : label,
    labelRemove: reader.boolean('label-remove')
  }
}

/** A label input: GitHub refuses a label's name over 50 characters, after requests that could have been saved. */
function labelName(reader: InputReader, name: string): string {
  const label = reader.text(name)
  if (label.length > 50)
    reader.problem(`Input "${name}" must be a label's name, at most 50 characters; got "${label}".`)
  return label
}

function readBatching(reader: InputReader): Batching {
  const limitText = reader.text('batch-limit')
  const limit = /^\d+$/.test(limitText) ? Number(limitText) : Number.NaN
  if (!(limit >= 1 && limit <= 100)) {
    reader.problem(`Input "batch-limit" must be a whole number of pull requests from 1 to 100; got "${limitText}".`)
  }
  const branch = reader.text('batch-branch')
  return {
    branch: branch === '' ? undefined : branch,
    limit,
    digestLabel: labelName(reader, 'digest-label') || 'docs digest',
    since: readBatchStart(reader),
    notify: reader.boolean('batch-notify')
  }
}

/** `batch-since`: a date (`2026-11-01`, or with a time), a duration back from now (`7d`, `2w`, `36h`), or a commit. */
function readBatchStart(reader: InputReader): BatchStart {
  const text = reader.text('batch-since') || '7d'
  const days = /^(\d+)\s*(d|w)$/i.exec(text)
  if (days) return { kind: 'ago', ms: Number(days[1]) * (days[2]?.toLowerCase() === 'w' ? 7 : 1) * DAY_MS }
  if (/^[0-9a-f]{7,40}$/i.test(text)) return { kind: 'commit', sha: text.toLowerCase() }
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(Date.parse(text)))
    return { kind: 'date', at: Date.parse(text) }
  const ms = parseDuration(text)
  if (ms !== undefined && ms > 0) return { kind: 'ago', ms }
  reader.problem(
    `Input "batch-since" must be a date (2026-11-01), a duration back from now (7d, 2w, 36h) or a commit; got "${text}".`
  )
  return { kind: 'ago', ms: 7 * DAY_MS }
}
