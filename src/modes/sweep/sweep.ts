// `mode: sweep`: the docs repository's open pull requests, the action's records that tie them to its jobs, what each
// pull request needs read to be judged (and no more), the plan, and the actions `sweep-actions` allows. No job is
// started: a conflicted pull request's own job is followed up, recorded on its tracking comment first.
import { isAgent, type OpenPull } from '../../github/agent-pulls.ts'
import { type AgentRecord, type CodeState, UPDATE_PROMPT } from '../../github/agent-records.ts'
import type { DocsSweep } from '../../github/docs-sweep.ts'
import type { Done } from '../../github/pulls.ts'
import type { SweepSettings } from '../../inputs/sweep-settings.ts'
import type { Logger } from '../../runner/io.ts'
import type { Redact } from '../../text/redact.ts'
import { forLog } from '../../text/untrusted.ts'
import type { Decision, Service, StepSetup } from '../../decide/decision.ts'
import { sendPrompt } from '../../decide/send.ts'
import { runRecord } from '../../decide/tracked.ts'
import { act, type FollowUp, type Outcome } from './act.ts'
import {
  type Judged,
  type Judging,
  judgeByDetails,
  judgeByRecords,
  keptOpen,
  mayBeMerged,
  mayBeStale,
  needsCodeState,
  plan,
  predates,
  wouldClose
} from './plan.ts'
import { outputOf, summaryOf, type SweepResult } from './report.ts'

export type { SweepResult } from './report.ts'

/** What a sweep did, for the summary and the `sweep` output. */
export interface Swept {
  /** The summary's section: the table of open agent pull requests and the window's figures (Markdown). */
  readonly summary: string
  /** The `sweep` output: one line of JSON. */
  readonly output: string
}

/** The most pull requests whose details one sweep reads, oldest first: the rest wait for the next run. */
export const MOST_DETAILED = 150

const AFTER = 'Nothing was changed; the next sweep tries again.'

/** What a sweep works with besides GitHub. */
export interface SweepAt {
  readonly settings: SweepSettings
  readonly projectId: string
  /** Milliseconds since the epoch. */
  readonly now: number
  readonly hosts: ReadonlySet<string>
  readonly redact: Redact
  readonly log: Logger
  readonly followUp: FollowUp
}

export async function decideSweep(setup: StepSetup): Promise<Decision<Swept>> {
  const github = setup.sweep?.(setup.settings.sweep.repository)
  if (github === undefined) return { kind: 'error', reason: `mode: sweep could not reach GitHub. ${AFTER}` }
  const { settings } = setup
  const at: SweepAt = {
    settings: settings.sweep,
    projectId: settings.projectId,
    now: setup.clock.date(),
    hosts: setup.githubHosts,
    redact: setup.redact,
    log: setup.log,
    followUp: followUpOf(setup, github)
  }
  const swept = await sweep(github, at)
  if (swept.kind === 'warning') return { kind: 'error', reason: `${swept.warning} ${AFTER}` }
  const result = swept.value
  const extra = { summary: summaryOf(result, at.settings, at.now), output: outputOf(result, at.settings, at.now) }
  return { kind: 'skipped', reason: reasonOf(result), extra }
}

/** The sweep: what it read, judged, planned and did; a warning when the listings or the records could not be read. */
export async function sweep(github: Service<DocsSweep>, at: SweepAt): Promise<Done<SweepResult>> {
  const read = await readAll(github, at)
  if (read.kind === 'warning') return read
  const { judged, perPull } = await judgeAll(github, read.value, at)
  const planned = plan(judged, at.settings)
  const outcomes = await act(planned, { github, followUp: at.followUp, log: at.log })
  const { open, window, records } = read.value
  const notes = notesOf(open.complete, window.complete, records.complete)
  for (const note of notes) at.log.warning(note)
  const value: SweepResult = {
    repository: github.repository,
    planned,
    outcomes,
    window: window.pulls,
    origins: new Map(records.records.map((record) => [record.number, record.origin])),
    requests: { ...github.requests(), perPull },
    notes
  }
  return { kind: 'done', value }
}

/** The one line the step ends with: how many, and what was done. */
function reasonOf(result: SweepResult): string {
  const done = (word: Outcome['result']): number => result.outcomes.filter((outcome) => outcome.result === word).length
  const open = result.planned.length
  const did = `${done('closed')} closed, ${done('merged')} merged, ${done('asked')} followed up${done('failed') > 0 ? `, ${done('failed')} failed (see the warnings)` : ''}`
  return `Swept ${result.repository}: ${open} open agent pull request${open === 1 ? '' : 's'}; ${did}`
}

/** What the sweep reads before it judges: the docs repository's listings and the records. */
async function readAll(github: Service<DocsSweep>, at: SweepAt) {
  const { settings, now } = at
  const me = await github.login()
  if (me === undefined) {
    const warning = "Could not read who github-token acts as, which tells the action's records from forgeries."
    return { kind: 'warning', warning } as const
  }
  const listed = await github.listOpen()
  if (listed.kind === 'warning') return listed
  // A title may quote a key (an agent copying a prompt): redacted before it is shown anywhere.
  const pulls = listed.value.pulls.map((pull) => ({ ...pull, title: at.redact(pull.title) }))
  const open = { kind: 'done', value: { ...listed.value, pulls } } as const
  const window = await github.listOpenedSince(now - settings.windowMs)
  if (window.kind === 'warning') return window
  // A record is written once its job opened its pull request: none older can name one still open.
  const since = Math.min(now - settings.windowMs, ...open.value.pulls.map((pull) => pull.createdAt))
  const of = { me, projectId: at.projectId, docs: github.repository, hosts: at.hosts, redact: at.redact }
  const records = await github.records(since, of)
  if (records.kind === 'warning') return records
  return { kind: 'done', value: { open: open.value, window: window.value, records: records.value } } as const
}

type Read = Extract<Awaited<ReturnType<typeof readAll>>, { kind: 'done' }>['value']

/** Each open agent pull request judged, oldest first. */
async function judgeAll(
  github: Service<DocsSweep>,
  read: Read,
  at: SweepAt
): Promise<{ judged: Judged[]; perPull: Map<number, number> }> {
  const { now } = at
  const staleAfterMs = at.settings.staleAfterMs
  const tied = new Map(read.records.records.map((record) => [record.number, record]))
  const judging: Judging & { code: Map<number, CodeState> } = {
    now,
    staleAfterMs,
    asksToUpdate: at.settings.actions.has('update-conflicted'),
    records: read.records.records,
    open: new Set(read.open.pulls.map((pull) => pull.number)),
    openedAt: new Map(read.open.pulls.map((pull) => [pull.number, pull.createdAt])),
    merged: new Set(read.window.pulls.filter((pull) => pull.mergedAt !== undefined).map((pull) => pull.number)),
    code: new Map(),
    codeUrl: (number) => github.codeUrl(number)
  }
  let detailed = 0
  const reading = { github, judging, mayRead: () => ++detailed <= MOST_DETAILED }
  const judged: Judged[] = []
  const perPull = new Map<number, number>()
  const sent = (): number => github.requests().workflow + github.requests().docs
  for (const pull of read.open.pulls) {
    const record = tied.get(pull.number)
    if (record === undefined && !isAgent(pull.author)) continue
    const before = sent()
    const one = await judgeOne(pull, record, reading)
    if (one.unread) at.log.warning(`#${pull.number}: ${forLog(one.unread, 300)} Left for the next sweep.`)
    judged.push(one)
    perPull.set(pull.number, sent() - before)
  }
  return { judged, perPull }
}

interface Reading {
  readonly github: Service<DocsSweep>
  readonly judging: Judging & { code: Map<number, CodeState> }
  /** Whether one more pull request's details may be read this run (MOST_DETAILED). */
  readonly mayRead: () => boolean
}

/**
 * One pull request judged, with only the reads its decision needs; a read that fails leaves it for the next run. One
 * it would close is first read for a reopening: then it stays open.
 */
async function judgeOne(pull: OpenPull, record: AgentRecord | undefined, reading: Reading): Promise<Judged> {
  const judged = await judgeByReads(pull, record, reading)
  if (!wouldClose(judged)) return judged
  const reopened = await reading.github.reopened(pull)
  if (reopened.kind === 'warning') return unread(pull, record, reopened.warning)
  return reopened.value ? keptOpen(judged) : judged
}

function unread(pull: OpenPull, record: AgentRecord | undefined, warning: string): Judged {
  return {
    pull,
    record,
    finding: 'open',
    action: undefined,
    why: `${warning} Left for the next sweep`,
    unread: warning
  }
}

async function judgeByReads(pull: OpenPull, record: AgentRecord | undefined, reading: Reading): Promise<Judged> {
  const { github, judging } = reading
  const unreadAs = (warning: string): Judged => unread(pull, record, warning)
  if (record && !predates(pull, record) && needsCodeState(record) && !judging.code.has(record.issue)) {
    const state = await github.codeState(record.issue)
    if (state.kind === 'warning') return unreadAs(state.warning)
    judging.code.set(record.issue, state.value)
  }
  const byRecords = judgeByRecords(pull, record, judging)
  if (byRecords !== undefined || record === undefined) return byRecords ?? unreadAs('')
  if (!reading.mayRead()) {
    const why = `not read this run: a sweep reads the details of the ${MOST_DETAILED} oldest open agent pull requests`
    return { pull, record, finding: 'open', action: undefined, why }
  }
  const details = await github.details(pull)
  if (details.kind === 'warning') return unreadAs(details.warning)
  const touched = mayBeStale(pull, judging) ? await github.touched(pull) : undefined
  if (touched?.kind === 'warning') return unreadAs(touched.warning)
  const checks = mayBeMerged(record, details.value, judging) ? await github.checks(details.value.headSha) : undefined
  if (checks?.kind === 'warning') return unreadAs(checks.warning)
  const later = { ...(touched ? { touched: touched.value } : {}), ...(checks ? { checks: checks.value } : {}) }
  return judgeByDetails(pull, record, details.value, later, judging)
}

/**
 * A conflicted pull request's job asked once to bring its branch up to date: recorded on the record's own tracking
 * comment before it is sent, so that no run sends it twice, and the next sweep knows it was asked.
 */
function followUpOf(setup: StepSetup, github: Service<DocsSweep>): FollowUp {
  return async (record) => {
    const opened = github.recordThread(record.issue)
    if (opened.kind !== 'ready') return { kind: 'not-sent', reason: opened.reason }
    const { thread } = opened
    const comment = setup.openComment({ state: record.state, commentId: record.commentId, find: false }, thread)
    const run = { ...runRecord(setup), attempt: thread.run.attempt }
    const target = { kind: 'follow-up', jobId: record.job } as const
    const decided = await sendPrompt(
      setup,
      run,
      { prompt: UPDATE_PROMPT, target, text: () => Promise.resolve(UPDATE_PROMPT) },
      comment
    )
    if (decided.kind !== 'job') {
      await comment?.settle()
      return { kind: 'not-sent', reason: decided.reason }
    }
    comment?.show({ kind: 'started' })
    await comment?.settle()
    return { kind: 'sent' }
  }
}

function notesOf(open: boolean, window: boolean, records: boolean): string[] {
  return [
    ...(open ? [] : ['The docs repository has more open pull requests than a sweep lists (1,000): the newest wait.']),
    ...(window
      ? []
      : [
          'More pull requests were opened in sweep-window than a sweep lists (1,000): the figures leave out the oldest.'
        ]),
    ...(records
      ? []
      : [
          "The workflow's repository has more comments since the oldest open pull request than a sweep reads (2,000, newest first): a pull request whose record is among the older ones is not tied to the action, and left alone."
        ])
  ]
}
