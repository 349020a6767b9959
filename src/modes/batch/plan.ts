// What the next batch of `mode: batch` covers: the commits on the branch after the cursor (the end of the latest batch
// whose job completed), the pull requests merged there that no batch covered yet, oldest first and at most
// `batch-limit`, each read and judged by the gates.
import type { FetchedChanges } from '../../github/change.ts'
import type { BranchCommit, CommitWindow, History, MergedPull } from '../../github/history.ts'
import type { BatchWindow, TrackingState } from '../../github/tracking-record.ts'
import { counted } from '../../prompt/tally.ts'
import { DAY_MS } from '../../text/duration.ts'
import { forLog } from '../../text/untrusted.ts'
import type { Service, StepSetup } from '../../decide/decision.ts'
import { gatedChangeOf, skipReason, tokenSelves } from '../../decide/gates.ts'

/** How a batch whose every pull request the gates left out is recorded: it moves the cursor like a completed one. */
export const LEFT_OUT_BATCH = 'skipped'

export interface NextBatch {
  readonly branch: string
  readonly window: CommitWindow
  readonly judged: Judged
  readonly coverage: Coverage
}

/** The next batch after these records (oldest first), read from the branch's history; its one line in the log. */
export async function readNextBatch(
  setup: StepSetup,
  history: Service<History>,
  records: readonly TrackingState[]
): Promise<NextBatch> {
  const moved = records.filter((state) => state.ended === 'completed' || state.ended === LEFT_OUT_BATCH)
  const cursor = moved.at(-1)?.batch
  const covered = new Set(moved.flatMap((state) => state.batch?.pulls ?? []))
  const branch = await history.branch()
  const window = await windowOf(setup, history, branch, cursor)
  const { pulls, known } = await mergedIn(setup, history, { branch, window, covered })
  const judged = await judgePulls(setup, history, pulls)
  const coverage = coverageOf({ ...window, commits: window.commits.slice(0, known) }, pulls, judged, cursor?.to ?? '')
  const read = { merged: pulls.length, branch, since: sinceWords(setup, cursor) }
  setup.log.info(batchLine(coverage, judged, read, history.calls()))
  return { branch, window, judged, coverage }
}

/** The commits since the cursor (its date, if history was rewritten), or since `batch-since` for a first batch. */
async function windowOf(
  setup: StepSetup,
  history: Service<History>,
  branch: string,
  cursor: BatchWindow | undefined
): Promise<CommitWindow> {
  const { since } = setup.settings.batch
  const now = setup.clock.date()
  const start = cursor ?? (since.kind === 'commit' ? { to: since.sha, toDate: now - 7 * DAY_MS } : undefined)
  const at = since.kind === 'date' ? since.at : now - (since.kind === 'ago' ? since.ms : 0)
  const window =
    start === undefined ? await history.since(at, branch) : await history.after(start.to, start.toDate, branch)
  if (window.more) {
    setup.log.info(
      `More commits came after the start of this batch than one batch reads: it reads the oldest ${counted(window.commits.length, 'commit')}, up to ${window.commits.at(-1)?.sha.slice(0, 7) ?? 'its start'}, and the next run goes on from where it ends.`
    )
  }
  if (start !== undefined && window.rewritten) {
    setup.log.warning(
      `The commit the last batch ended at (${start.to.slice(0, 7)}) is no longer in the history of ${forLog(branch, 80)} (it was rewritten): this batch starts at that commit's date, ${new Date(start.toDate).toISOString()}, instead.`
    )
  }
  return window
}

/** The most commits whose pull request one batch asks of GitHub one by one. */
const MOST_ASKED = 100

/**
 * The pull requests the window's commits merged that no batch covered, in the window's order, none left out; and how
 * many of its commits are told (`known`). The listing tells them all when it holds every pull request merged since
 * the window's start. Cut short (a busy repository), it may have left out any: then each commit it does not explain
 * is asked of GitHub in turn, up to `batch-limit` pull requests, and the batch ends there.
 */
export async function mergedIn(
  setup: StepSetup,
  history: Service<History>,
  where: { readonly branch: string; readonly window: CommitWindow; readonly covered: ReadonlySet<number> }
): Promise<{ readonly pulls: MergedPull[]; readonly known: number }> {
  const { branch, window, covered } = where
  const earliest = Math.min(...window.commits.map((commit) => commit.date), setup.clock.date()) - DAY_MS
  const listed = await history.merged(branch, earliest)
  const bySha = new Map(listed.pulls.map((pull) => [pull.mergeCommit, pull]))
  const pulls: MergedPull[] = []
  let asked = 0
  const endBefore = (index: number) => {
    const at = window.commits[index]?.sha.slice(0, 7) ?? ''
    setup.log.info(
      `GitHub lists more pull requests closed since ${new Date(earliest).toISOString()} than one listing reads (${counted(listed.pulls.length, 'merged pull request')}): this batch asked GitHub for the pull request of each commit the listing did not explain (${counted(asked, 'commit')}), and ends before ${at}; the next run goes on from there.`
    )
    return { pulls, known: index }
  }
  for (const [index, commit] of window.commits.entries()) {
    const sha = commit.sha.toLowerCase()
    if (!listed.complete && pulls.length >= setup.settings.batch.limit) return endBefore(index)
    let pull = bySha.get(sha)
    if (pull === undefined && !listed.complete) {
      if (asked >= MOST_ASKED) return endBefore(index)
      asked += 1
      pull = await history.mergedBy(sha, branch)
    }
    if (pull && !covered.has(pull.facts.number)) pulls.push(pull)
  }
  return { pulls, known: window.commits.length }
}

function position(window: CommitWindow, pull: MergedPull): number {
  return window.commits.findIndex((commit) => commit.sha.toLowerCase() === pull.mergeCommit)
}

export interface Judged {
  /** The pull requests sent to the agent, each with its files. */
  readonly parts: readonly { readonly pull: MergedPull; readonly fetched: FetchedChanges }[]
  /** Judged and left out by the gates: listed, not sent. */
  readonly leftOut: readonly { readonly number: number; readonly reason: string }[]
  /** How many of the merged pull requests this batch judged, oldest first: the rest wait. */
  readonly count: number
}

/** The oldest pull requests, up to `batch-limit`, each read and gated; a read that fails ends the batch before it. */
async function judgePulls(setup: StepSetup, history: Service<History>, pulls: readonly MergedPull[]): Promise<Judged> {
  const { settings, log } = setup
  const parts: Judged['parts'][number][] = []
  const leftOut: { number: number; reason: string }[] = []
  let count = 0
  for (const pull of pulls.slice(0, settings.batch.limit)) {
    let fetched
    try {
      fetched = await history.files(pull.facts)
    } catch {
      log.warning(
        `The files of pull request #${pull.facts.number} could not be read from GitHub: it waits for the next run, and so do the pull requests merged after it.`
      )
      break
    }
    count += 1
    const gated = gatedChangeOf({ facts: pull.facts, fetched, calls: 0 })
    const selves = gated === undefined ? [] : await tokenSelves(settings, setup, gated.author)
    const reason = gated === undefined ? undefined : skipReason(settings.gates, gated, selves)
    if (reason !== undefined) leftOut.push({ number: pull.facts.number, reason })
    else parts.push({ pull, fetched })
  }
  const waiting = pulls.length - count
  if (waiting > 0) log.info(`${waiting} more merged pull request${waiting === 1 ? '' : 's'} wait for the next batch.`)
  return { parts, leftOut, count }
}

export interface Coverage {
  readonly window: BatchWindow
  readonly covered: readonly number[]
  /** The commits the batch covers that no merged pull request brought. */
  readonly direct: readonly BranchCommit[]
}

/** What the batch covers: up to the branch's head when every pull request was judged, else up to the last judged. */
function coverageOf(window: CommitWindow, pulls: readonly MergedPull[], judged: Judged, from: string): Coverage {
  const seen = pulls.slice(0, judged.count)
  const all = seen.length === pulls.length
  const lastJudged = seen.at(-1)
  const end = all
    ? window.commits.length - 1
    : lastJudged
      ? position(window, lastJudged)
      : position(window, pulls[0] as MergedPull) - 1
  const within = window.commits.slice(0, end + 1)
  const merges = new Set(pulls.map((pull) => pull.mergeCommit))
  const to = within.at(-1)
  const covered = seen.map((pull) => pull.facts.number)
  return {
    window: { from, to: to?.sha ?? from, toDate: to?.date ?? 0, pulls: covered },
    covered,
    direct: within.filter((commit) => !merges.has(commit.sha.toLowerCase()))
  }
}

/** Where this batch starts, in the log's words: the last batch's end, or `batch-since` for the first batch. */
function sinceWords(setup: StepSetup, cursor: BatchWindow | undefined): string {
  if (cursor) return `the last batch (${cursor.to.slice(0, 7) || 'its start'})`
  const { since } = setup.settings.batch
  if (since.kind === 'commit') return `${since.sha.slice(0, 7)} (batch-since)`
  const at = since.kind === 'date' ? since.at : setup.clock.date() - since.ms
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC (batch-since; no batch before this one)`
}

function batchLine(
  coverage: Coverage,
  judged: Judged,
  read: { readonly merged: number; readonly branch: string; readonly since: string },
  calls: number
): string {
  const merged = `${counted(read.merged, 'pull request')} merged into ${forLog(read.branch, 80)} since ${read.since}`
  const sent = coverage.covered.length - judged.leftOut.length
  const gated = judged.leftOut.length > 0 ? `, ${judged.leftOut.length} left out by the gates` : ''
  const direct = `${counted(coverage.direct.length, 'commit')} pushed without a pull request`
  const to = coverage.window.to.slice(0, 7) || 'nothing'
  return `Batch: ${merged}; this batch describes ${sent}${gated}, and ${direct}, up to ${to} (GitHub requests: ${calls}).`
}
