// What `mode: sweep` reads of the inputs: the docs repository it sweeps, what it may do there (nothing by default: a
// first run only reports), how many actions a run takes, when a pull request is stale, and the window its figures
// cover. Every problem names its input, before any request.
import { HOUR_MS } from '../text/duration.ts'
import type { InputReader } from './input-reader.ts'

/** What a sweep may do, each named in `sweep-actions`. */
export const SWEEP_ACTIONS = [
  'close-orphaned',
  'close-superseded',
  'close-stale',
  'merge-approved',
  'update-conflicted'
] as const
export type SweepAction = (typeof SWEEP_ACTIONS)[number]

export interface SweepSettings {
  /** The docs repository, `owner/name`; undefined: the workflow's own (GITHUB_REPOSITORY). */
  readonly repository: string | undefined
  /** The actions the sweep may take; none: it only reports. */
  readonly actions: ReadonlySet<SweepAction>
  /** The most actions one run takes, oldest pull request first. */
  readonly limit: number
  /** A pull request with no activity for this long is stale. */
  readonly staleAfterMs: number
  /** The figures cover the agent pull requests opened this long before the sweep. */
  readonly windowMs: number
}

export const SWEEP_DEFAULTS = {
  'sweep-actions': '',
  'sweep-limit': '10',
  'stale-after': '14d',
  'sweep-window': '30d'
} as const

const REPOSITORY = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/

/** The sweep's inputs: `docs-repository`, `sweep-actions`, `sweep-limit`, `stale-after`, `sweep-window`. */
export function readSweepSettings(reader: InputReader): SweepSettings {
  const repository = reader.text('docs-repository')
  const valid = REPOSITORY.test(repository) && !/\/\.+$/.test(repository)
  if (repository !== '' && !valid) {
    reader.problem(`Input "docs-repository" must be a repository as owner/name; got "${repository}".`)
  }
  return {
    repository: valid ? repository : undefined,
    actions: readActions(reader),
    limit: readLimit(reader),
    staleAfterMs: readAge(reader, 'stale-after'),
    windowMs: readAge(reader, 'sweep-window')
  }
}

/**
 * Why the sweep cannot reach its docs repository with the tokens given, before any request; undefined when it can.
 * github-token reaches only the workflow's own repository (`workflow`, GITHUB_REPOSITORY).
 */
export function docsTokenProblem(sweep: SweepSettings, docsToken: string, workflow: string): string | undefined {
  const { repository } = sweep
  if (repository === undefined || docsToken !== '' || repository.toLowerCase() === workflow.toLowerCase())
    return undefined
  return `Input "docs-token" is required to sweep ${repository}: github-token reaches only ${workflow || "the workflow's own repository"}. Pass a token with pull-requests: write, checks: read and statuses: read on ${repository} (contents: write too for merge-approved; a GitHub App's installation token, say).`
}

function readActions(reader: InputReader): ReadonlySet<SweepAction> {
  const text = reader.text('sweep-actions') || SWEEP_DEFAULTS['sweep-actions']
  const named = text.split(/[\s,]+/).filter((name) => name !== '')
  const unknown = named.filter((name) => !SWEEP_ACTIONS.some((action) => action === name.toLowerCase()))
  if (unknown.length > 0) {
    reader.problem(
      `Input "sweep-actions" names what the sweep may do, from ${SWEEP_ACTIONS.join(', ')} (none: it only reports); got "${unknown.join(', ')}".`
    )
  }
  return new Set(SWEEP_ACTIONS.filter((action) => named.some((name) => name.toLowerCase() === action)))
}

function readLimit(reader: InputReader): number {
  const text = reader.text('sweep-limit') || SWEEP_DEFAULTS['sweep-limit']
  const limit = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!(limit >= 1 && limit <= 100)) {
    reader.problem(`Input "sweep-limit" must be a whole number of actions from 1 to 100; got "${text}".`)
    return Number(SWEEP_DEFAULTS['sweep-limit'])
  }
  return limit
}

/** An age in days, weeks or hours: `14d`, `2w`, `36h`. */
function readAge(reader: InputReader, name: 'stale-after' | 'sweep-window'): number {
  const text = reader.text(name) || SWEEP_DEFAULTS[name]
  const match = /^(\d{1,4})\s*(h|d|w)$/i.exec(text)
  const hours = { h: 1, d: 24, w: 168 }[(match?.[2] ?? '').toLowerCase() as 'h' | 'd' | 'w']
  const ms = match && hours ? Number(match[1]) * hours * HOUR_MS : 0
  if (ms <= 0 || ms > 3650 * 24 * HOUR_MS) {
    reader.problem(`Input "${name}" must be a length of time such as 14d, 2w or 36h (up to ten years); got "${text}".`)
    return Number(/\d+/.exec(SWEEP_DEFAULTS[name])?.[0]) * 24 * HOUR_MS
  }
  return ms
}
