// What the sweep tells: the summary's table of every open agent pull request (its age, origin, state, and what was
// done), the figures of the last `sweep-window` by origin, and the `sweep` output, one JSON object on one line. Titles
// and logins come from outside: made safe for Markdown; the output holds only numbers, links and the sweep's words.
import type { WindowPull } from '../../github/agent-pulls.ts'
import { type Origin, ORIGINS } from '../../github/agent-records.ts'
import type { SweepSettings } from '../../inputs/sweep-settings.ts'
import { codeSpan, forLog, forMarkdown } from '../../text/untrusted.ts'
import type { Outcome } from './act.ts'
import type { Planned } from './plan.ts'

export interface SweepResult {
  /** The docs repository, `owner/name`. */
  readonly repository: string
  /** Every open agent pull request (tied by a record, or opened by the agent), oldest first, with its step. */
  readonly planned: readonly Planned[]
  readonly outcomes: readonly Outcome[]
  /** The docs pull requests opened in `sweep-window`, and the origin of those a record ties to the action. */
  readonly window: readonly WindowPull[]
  readonly origins: ReadonlyMap<number, Origin>
  /** In the workflow's repository and in the docs repository, and the reads each pull request took, by number. */
  readonly requests: { readonly workflow: number; readonly docs: number; readonly perPull: ReadonlyMap<number, number> }
  /** What the sweep could not read whole, in its own words. */
  readonly notes: readonly string[]
}

/** The agent pull requests opened in the window, and how they stand now. */
export interface Figures {
  readonly opened: number
  readonly merged: number
  readonly closedUnmerged: number
  readonly open: number
  /** Merged of opened, 0 to 1; null with none opened. */
  readonly mergedShare: number | null
  /** The median time from opened to merged, in milliseconds; null with none merged. */
  readonly medianToMergeMs: number | null
}

export type FiguresByOrigin = Readonly<Record<'all' | Origin, Figures>>

/**
 * The figures of the agent pull requests opened in the window (those a record ties to the action), this run's closes
 * and merges counted.
 */
export function figuresOf(
  window: readonly WindowPull[],
  origins: ReadonlyMap<number, Origin>,
  outcomes: readonly Outcome[],
  now: number
): FiguresByOrigin {
  const after = window.flatMap((pull) => {
    const origin = origins.get(pull.number)
    if (origin === undefined) return []
    const done = outcomes.find((outcome) => outcome.number === pull.number)?.result
    if (done === 'merged') return [{ ...pull, origin, mergedAt: now, closedAt: now }]
    return [{ ...pull, origin, ...(done === 'closed' ? { closedAt: now } : {}) }]
  })
  const of = (pulls: typeof after): Figures => {
    const merged = pulls.filter((pull) => pull.mergedAt !== undefined)
    const closed = pulls.filter((pull) => pull.mergedAt === undefined && pull.closedAt !== undefined).length
    return {
      opened: pulls.length,
      merged: merged.length,
      closedUnmerged: closed,
      open: pulls.length - merged.length - closed,
      mergedShare: pulls.length === 0 ? null : merged.length / pulls.length,
      medianToMergeMs: median(merged.map((pull) => (pull.mergedAt ?? 0) - pull.createdAt))
    }
  }
  const byOrigin = Object.fromEntries(ORIGINS.map((origin) => [origin, of(after.filter((p) => p.origin === origin))]))
  return { all: of(after), ...byOrigin } as FiguresByOrigin
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

/** How long, for people: `3d`, `5h`, `40m`. */
export function ageOf(ms: number): string {
  if (ms >= 86_400_000) return `${Math.floor(ms / 86_400_000)}d`
  if (ms >= 3_600_000) return `${Math.floor(ms / 3_600_000)}h`
  return `${Math.max(0, Math.floor(ms / 60_000))}m`
}

/** What became of a planned pull request, in the sweep's words. */
export function doneOf(entry: Planned, outcomes: readonly Outcome[]): string {
  const outcome = outcomes.find((candidate) => candidate.number === entry.pull.number)
  if (outcome) return outcome.detail === '' ? outcome.result : `${outcome.result}: ${outcome.detail}`
  const would = entry.action ? `would ${entry.action.replace(/-.*/, '')}` : 'left alone'
  if (entry.step === 'not-enabled') return `${would} (${entry.action ?? ''} is not in sweep-actions)`
  if (entry.step === 'over-limit') return `${would} (past sweep-limit: the next sweep)`
  return would
}

/** The summary: the table of open agent pull requests, then the window's figures. */
export function summaryOf(result: SweepResult, settings: SweepSettings, now: number): string {
  const { planned, outcomes } = result
  const mode =
    settings.actions.size === 0
      ? 'report only (`sweep-actions` is empty)'
      : `may ${[...settings.actions].join(', ')}, at most ${settings.limit} a run`
  const rows = planned.map((entry) => {
    const name = `<a href="${forMarkdown(entry.record?.url ?? '')}">#${entry.pull.number}</a>`
    const shown = entry.record ? name : `#${entry.pull.number}`
    // A code span: GitHub makes no link or mention of what is in one; a table cell still needs its pipes escaped.
    const title = codeSpan(forLog(entry.pull.title, 80)).replaceAll('|', '\\|')
    const origin = entry.record?.origin ?? `not tied (by ${forMarkdown(entry.pull.author.login, 40)})`
    const state = `${entry.finding}: ${forMarkdown(entry.why, 300)}`
    return `| ${shown} ${title} | ${ageOf(now - entry.pull.createdAt)} | ${origin} | ${state} | ${forMarkdown(doneOf(entry, outcomes), 300)} |`
  })
  const figures = figuresOf(result.window, result.origins, outcomes, now)
  const line = (name: string, f: Figures): string =>
    `| ${name} | ${f.opened} | ${f.merged} | ${f.closedUnmerged} | ${f.open} | ${f.mergedShare === null ? '–' : `${Math.round(f.mergedShare * 100)}%`} | ${f.medianToMergeMs === null ? '–' : ageOf(f.medianToMergeMs)} |`
  return [
    `### Docs sweep of ${forMarkdown(result.repository, 140)}`,
    '',
    `${planned.length} open agent pull request${planned.length === 1 ? '' : 's'}; the sweep ${mode}.`,
    '',
    ...(rows.length === 0
      ? []
      : ['| pull request | age | origin | state | done |', '| --- | --- | --- | --- | --- |', ...rows, '']),
    `**Agent pull requests opened in the last ${ageOf(settings.windowMs)}**, as they stand now:`,
    '',
    '| origin | opened | merged | closed unmerged | still open | merged share | median time to merge |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    line('all', figures.all),
    ...ORIGINS.filter((origin) => figures[origin].opened > 0).map((origin) => line(origin, figures[origin])),
    ...result.notes.map((note) => `\n> ${forMarkdown(note, 400)}`)
  ].join('\n')
}

/** The `sweep` output: the figures and each action, taken or proposed; one line of JSON. */
export function outputOf(result: SweepResult, settings: SweepSettings, now: number): string {
  const { planned, outcomes } = result
  const entry = (pull: Planned) => ({
    number: pull.pull.number,
    ...(pull.record ? { url: pull.record.url, origin: pull.record.origin } : {}),
    finding: pull.finding,
    action: pull.action
  })
  return JSON.stringify({
    repository: result.repository,
    window: ageOf(settings.windowMs),
    open: planned.length,
    figures: figuresOf(result.window, result.origins, outcomes, now),
    actions: planned.flatMap((pull) => {
      const outcome = outcomes.find((done) => done.number === pull.pull.number)
      return pull.step === 'act' && outcome ? [{ ...entry(pull), result: outcome.result, detail: outcome.detail }] : []
    }),
    proposed: planned.flatMap((pull) =>
      pull.step && pull.step !== 'act' ? [{ ...entry(pull), step: pull.step }] : []
    ),
    requests: { workflow: result.requests.workflow, docs: result.requests.docs }
  })
}
