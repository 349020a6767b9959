// What the sweep makes of each open pull request of the docs repository, and what it does about it: pure functions of
// what was read. A pull request its records do not tie to the action is only reported. What may be done is what
// `sweep-actions` names, at most `sweep-limit` actions a run, oldest pull request first.
import { isAgent, mergeBlocker, type OpenPull, type PullDetails } from '../../github/agent-pulls.ts'
import { type AgentRecord, type CodeState, newer, openedBefore } from '../../github/agent-records.ts'
import type { SweepAction, SweepSettings } from '../../inputs/sweep-settings.ts'

export const FINDINGS = ['orphaned', 'superseded', 'approved', 'conflicted', 'stale', 'open', 'untied'] as const
export type Finding = (typeof FINDINGS)[number]

/** What the sweep made of one open pull request. */
export interface Judged {
  readonly pull: OpenPull
  /** The record that ties it to the action; undefined for `untied`. */
  readonly record: AgentRecord | undefined
  readonly finding: Finding
  /** What the sweep does about it, when `sweep-actions` allows; undefined: reported only. */
  readonly action: SweepAction | undefined
  /** Why, in the sweep's own words (nothing from outside). */
  readonly why: string
  /** With `orphaned`, the code pull request; with `superseded`, the newer docs pull request: the comment links it. */
  readonly link?: string
  /** With `approved`: the head it is merged at (a push since makes GitHub refuse the merge). */
  readonly head?: string
  /** A read it needed failed (a warning in our words): it is left for the next sweep, and the log says why. */
  readonly unread?: string
}

/** What the judging knows besides the pull request itself. */
export interface Judging {
  readonly now: number
  readonly staleAfterMs: number
  /**
   * Whether `sweep-actions` lets it ask a conflicted pull request's job to update: when not, a stale one that
   * conflicts is judged stale, so that `close-stale` alone still closes it.
   */
  readonly asksToUpdate: boolean
  /** Every record read: a newer one may take over a pull request's code pull request or batch. */
  readonly records: readonly AgentRecord[]
  /** The docs pull requests open now, and those known merged. */
  readonly open: ReadonlySet<number>
  /** When each open one was opened, by number: a newer record whose pull request predates its job takes over nothing. */
  readonly openedAt: ReadonlyMap<number, number>
  readonly merged: ReadonlySet<number>
  /** The code pull requests' states, by number, as read for records that do not tell. */
  readonly code: ReadonlyMap<number, CodeState>
  /** The link to a pull request of the workflow's repository. */
  readonly codeUrl: (number: number) => string
}

/**
 * Whether the pull request was opened before the job its record names was started: then it is not that job's (a
 * link the admin API answered with may name anyone's pull request), and the record does not tie it.
 */
export function predates(pull: OpenPull, record: AgentRecord): boolean {
  return openedBefore(pull.createdAt, record.startedAt)
}

/**
 * What the records alone decide: not tied to the action, orphaned or superseded. Undefined when the decision needs
 * the pull request's details.
 */
export function judgeByRecords(pull: OpenPull, record: AgentRecord | undefined, at: Judging): Judged | undefined {
  if (record === undefined) {
    const by = isAgent(pull.author) ? 'opened by the Mintlify agent, but ' : ''
    return { pull, record, finding: 'untied', action: undefined, why: `${by}no record of this action ties it to a job` }
  }
  if (predates(pull, record)) {
    const why = "a record names it, but it was opened before that job started: not the job's, left alone"
    return { pull, record: undefined, finding: 'untied', action: undefined, why }
  }
  const code = codeEnd(record, at)
  if (record.source === 'closed' || record.source === 'found-closed') {
    const why = 'reopened by a person after its code pull request ended: left to them'
    return { pull, record, finding: 'open', action: undefined, why }
  }
  if (code === 'closed') {
    const link = at.codeUrl(record.issue)
    const why = `its code pull request ${link} was closed without merging`
    return { pull, record, finding: 'orphaned', action: 'close-orphaned', why, link }
  }
  const newest = supersededBy(record, at)
  if (newest) {
    const why = `a newer agent pull request, ${newest.url}, took over its ${record.origin === 'batch' ? 'batch' : 'code pull request'}`
    return { pull, record, finding: 'superseded', action: 'close-superseded', why, link: newest.url }
  }
  return undefined
}

/** How the code pull request of a `pair` record ended, by the record or else as read; undefined for other origins. */
function codeEnd(record: AgentRecord, at: Judging): CodeState | undefined {
  if (record.origin !== 'pair') return undefined
  if (record.source === 'merged') return 'merged'
  return at.code.get(record.issue)
}

/** Whether the sweep needs to read the code pull request's state: a `pair` record that does not say how it ended. */
export function needsCodeState(record: AgentRecord | undefined): boolean {
  return record?.origin === 'pair' && record.source === undefined
}

/**
 * The newest record that took over this one's work, with a docs pull request open or merged: one that names it as
 * replaced, a newer job for the same code pull request (`pair`), or a newer batch covering all of its pull requests.
 */
function supersededBy(record: AgentRecord, at: Judging): AgentRecord | undefined {
  const covers = (newer: AgentRecord): boolean =>
    (record.covers ?? []).length > 0 && (record.covers ?? []).every((pull) => newer.covers?.includes(pull))
  const takesOver = (other: AgentRecord): boolean =>
    other.supersedes === record.number ||
    (other.origin === record.origin &&
      ((record.origin === 'pair' && other.issue === record.issue) || (record.origin === 'batch' && covers(other))))
  const candidates = at.records.filter(
    (other) =>
      other.number !== record.number &&
      newer(other, record) &&
      takesOver(other) &&
      (at.open.has(other.number) || at.merged.has(other.number)) &&
      !openedBefore(at.openedAt.get(other.number) ?? Infinity, other.startedAt)
  )
  return candidates.reduce<AgentRecord | undefined>(
    (best, other) => (!best || newer(other, best) ? other : best),
    undefined
  )
}

const CLOSES: ReadonlySet<SweepAction | undefined> = new Set(['close-orphaned', 'close-superseded', 'close-stale'])

/** Whether the sweep would close it: then whether it was ever reopened is read first. */
export function wouldClose(judged: Judged): boolean {
  return CLOSES.has(judged.action)
}

/** A pull request someone reopened after a close is theirs: the sweep reports it and never closes it again. */
export function keptOpen(judged: Judged): Judged {
  const why = `${judged.why}; but someone reopened it after it was closed: left to them, never closed again`
  return { ...judged, finding: 'open', action: undefined, why }
}

/** Whether the sweep may merge a pull request of this origin once approved: never ahead of its code. */
function mayMerge(record: AgentRecord, at: Judging): string | undefined {
  if (record.origin === 'request') return 'a person asked for it: a person merges it'
  if (record.origin === 'pair' && codeEnd(record, at) !== 'merged') return 'its code pull request is not merged yet'
  return undefined
}

/** Whether the pull request had no activity for `stale-after`: then whether a person touched it is read. */
export function mayBeStale(pull: OpenPull, at: Judging): boolean {
  return at.now - pull.updatedAt >= at.staleAfterMs
}

const OUT_OF_DATE = new Set(['dirty', 'behind'])

/** Whether the pull request is approved and mergeable, so that its checks are read to decide a merge. */
export function mayBeMerged(record: AgentRecord, details: PullDetails, at: Judging): boolean {
  return mayMerge(record, at) === undefined && mergeBlocker(details) === undefined
}

/** What was read of a pull request beyond its details, each only when needed. */
export interface Later {
  /** A person committed or left a review comment (read only when it may be stale). */
  readonly touched?: boolean
  /** Its checks (read only when it may be merged). */
  readonly checks?: 'pass' | 'fail' | 'pending'
}

/** What the details decide: approved, conflicted, stale, or open. */
export function judgeByDetails(
  pull: OpenPull,
  record: AgentRecord,
  details: PullDetails,
  later: Later,
  at: Judging
): Judged {
  const judged = (finding: Finding, action: SweepAction | undefined, why: string): Judged => ({
    pull,
    record,
    finding,
    action,
    why
  })
  if (mayBeMerged(record, details, at) && later.checks === 'pass') {
    return {
      ...judged('approved', 'merge-approved', 'approved, mergeable, and its checks pass'),
      head: details.headSha
    }
  }
  const outOfDate = details.mergeable === false || OUT_OF_DATE.has(details.mergeState)
  const conflict = details.mergeState === 'behind' ? 'is behind its base branch' : 'conflicts with its base branch'
  const stale = staleness(pull, details, later, at)
  if (outOfDate && !record.askedToUpdate && (at.asksToUpdate || !stale.stale)) {
    return judged('conflicted', 'update-conflicted', `its branch ${conflict}: its job is asked to bring it up to date`)
  }
  if (stale.stale) return judged('stale', 'close-stale', stale.why)
  if (outOfDate) return judged('conflicted', undefined, `its branch ${conflict}; its job was asked to update it once`)
  return judged('open', undefined, stale.why || openWhy(record, details, later, at))
}

function staleness(pull: OpenPull, details: PullDetails, later: Later, at: Judging) {
  if (!mayBeStale(pull, at)) return { stale: false, why: '' }
  const idle = at.now - pull.updatedAt
  const days =
    idle >= 2 * 86_400_000
      ? `no activity for ${Math.floor(idle / 86_400_000)} days`
      : `no activity for ${Math.floor(idle / 3_600_000)} hours`
  if (later.touched === false && !details.reviews.byPeople) return { stale: true, why: days }
  return { stale: false, why: `${days}, but a person worked on it: never closed as stale` }
}

function openWhy(record: AgentRecord, details: PullDetails, later: Later, at: Judging): string {
  const { reviews } = details
  if (reviews.changesRequested) return 'a reviewer asked for changes'
  if (details.mergeable === undefined) return 'GitHub has not worked out yet whether it can be merged'
  if (!reviews.approved) return 'waiting for an approving review'
  const held = mayMerge(record, at)
  if (held) return `approved, but ${held}`
  if (details.mergeState === 'blocked') return "approved, but the repository's rules block its merge"
  return later.checks === 'fail' ? 'approved, but its checks failed' : 'approved; its checks have not passed yet'
}

/** Where a judged pull request stands in this run's plan. */
export type Step =
  /** Done this run. */
  | 'act'
  /** `sweep-actions` does not name its action: reported as what would be done. */
  | 'not-enabled'
  /** Past `sweep-limit`: left for the next run. */
  | 'over-limit'

export interface Planned extends Judged {
  /** Undefined when there is nothing to do. */
  readonly step: Step | undefined
}

/** The run's plan: oldest pull request first, at most `sweep-limit` actions, each only if `sweep-actions` names it. */
export function plan(judged: readonly Judged[], settings: Pick<SweepSettings, 'actions' | 'limit'>): Planned[] {
  const oldestFirst = [...judged].sort((a, b) => a.pull.createdAt - b.pull.createdAt || a.pull.number - b.pull.number)
  let taken = 0
  return oldestFirst.map((entry): Planned => {
    if (entry.action === undefined) return { ...entry, step: undefined }
    if (!settings.actions.has(entry.action)) return { ...entry, step: 'not-enabled' }
    if (taken >= settings.limit) return { ...entry, step: 'over-limit' }
    taken += 1
    return { ...entry, step: 'act' }
  })
}
