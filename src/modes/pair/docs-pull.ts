// With `mode: pair`, what happens to the docs pull request: told when its code pull request is merged, closed with it,
// reopened with it, and once a job that replaces it has opened its own, closed as superseded.
import { checkPrLink } from '../../admin-api/agent-job.ts'
import type { PullRequestFacts } from '../../github/change.ts'
import { mergeBlocker } from '../../github/agent-pulls.ts'
import { jobStart, openedBefore } from '../../github/agent-records.ts'
import type { Done, PullRef } from '../../github/pulls.ts'
import type { StoredComment } from '../../github/comment-store.ts'
import type { SourceEnd } from '../../github/tracking-record.ts'
import type { CommentView } from '../../report/comment-body.ts'
import type { WaitResult } from '../../wait/job-wait.ts'
import type { Decision, StepSetup } from '../../decide/decision.ts'

/** What a pair's decision knows of its docs pull request, for its after-job work and the `action-taken` output. */
export interface Paired {
  /** The earlier docs pull request to close once this job's is open. */
  readonly supersedes?: string | undefined
  /** The docs pull request was told instead that its code pull request was `merged` or `closed`, or was `reopened`. */
  readonly told?: 'merged' | 'closed' | 'reopened' | undefined
}

export function skipped(setup: StepSetup, reason: string, told?: Paired['told']): Decision<Paired> {
  setup.log.info(`Nothing is sent to the agent: ${reason}.`)
  return told ? { kind: 'skipped', reason, extra: { told } } : { kind: 'skipped', reason }
}

/** The code pull request ended: its docs pull request is told (merged), or closed (closed unmerged). */
export async function endOfSource(
  setup: StepSetup,
  pull: PullRequestFacts,
  record: StoredComment | undefined
): Promise<Decision<Paired>> {
  const how = pull.merged ? 'merged' : 'closed'
  const name = `pull request #${pull.number}`
  const docs = record?.state.pr
  if (record === undefined || docs === undefined) {
    return skipped(setup, `${name} was ${how}, and no docs pull request is recorded for it`, how)
  }
  // `found-closed` is looked at again: someone may have reopened the docs pull request since.
  if (record.state.source === how)
    return skipped(setup, `${name} was ${how}, and its docs pull request was told already`, how)
  const ref = docsPull(setup, docs)
  const told: Told =
    ref === undefined
      ? { end: undefined, notes: [`${docs} is not a GitHub pull request the action can reach`] }
      : await tellDocs(setup, pull, ref, { how, startedAt: jobStart(record.state) })
  const { notes, already } = told
  // Not told: nothing is recorded, so that the next delivery of the event tries again.
  const state = told.end === undefined ? record.state : { ...record.state, source: told.end }
  await showSource(setup, { ...record, state }, { kind: 'source', how, docs, notes, ...(already ? { already } : {}) })
  const done = already
    ? `${already === 'merged' ? 'merged' : 'closed'} already, and is left as it is`
    : told.mergedToo === true
      ? 'approved, mergeable and green: merged too'
      : notes.length === 0
        ? { merged: 'told', closed: 'closed' }[how]
        : 'not told (see the warnings)'
  return skipped(setup, `${name} was ${how}: its docs pull request ${docs} was ${done}`, how)
}

/** What telling the docs pull request came to: what to record (none: not told), what failed, what it found. */
interface Told {
  readonly end: SourceEnd | undefined
  readonly notes: string[]
  readonly already?: 'was-closed' | 'merged'
  /** With `merge-approved`: the docs pull request was approved, mergeable and green, and merged with its code. */
  readonly mergedToo?: boolean
}

/**
 * The code pull request is open again after the action closed its docs pull request: that one is reopened too, so
 * that follow-ups land where a reviewer sees them. When GitHub will not (its branch is gone, or it was merged), the
 * next job starts anew (undefined); when it cannot be reached, the job is followed up, and a later event tries again.
 */
export async function reopenDocs(
  setup: StepSetup,
  pull: PullRequestFacts,
  record: StoredComment
): Promise<{ readonly record: StoredComment | undefined; readonly reopened: boolean }> {
  const docs = record.state.pr ?? ''
  const ref = docsPull(setup, docs)
  const done = ref === undefined || setup.pulls === undefined ? undefined : await setup.pulls.reopen(ref)
  const name = `pull request #${pull.number}`
  if (done?.kind === 'done' && (done.value === 'refused' || done.value === 'merged')) {
    const why = done.value === 'merged' ? `${docs} was merged` : `GitHub would not reopen ${docs} (its branch is gone)`
    setup.log.warning(`${why}: a new job is started for the whole of ${name}.`)
    return { record: undefined, reopened: false }
  }
  if (ref === undefined || done?.kind !== 'done') {
    const why = done?.kind === 'warning' ? done.warning : `${docs} could not be reopened.`
    setup.log.warning(`${why} The job is followed up; its docs pull request stays closed until it can be reopened.`)
    return { record, reopened: false }
  }
  const body = `${aboutSource(pull)} was reopened, so this docs pull request is reopened too.`
  // Open already: someone reopened it, and said so themselves.
  const notes = done.value === 'reopened' ? warningsOf([await setup.pulls?.comment(ref, body)]) : []
  const { source: _closed, ...state } = record.state
  const reopened = { ...record, state }
  await showSource(setup, reopened, { kind: 'source', how: 'reopened', docs, notes })
  setup.log.info(`Reopened ${docs}: ${name} is open again.`)
  return { record: reopened, reopened: true }
}

/** What failed, warned in the log; what became of the docs pull request, in the tracking comment with this record. */
async function showSource(setup: StepSetup, record: StoredComment, view: CommentView & { kind: 'source' }) {
  for (const note of view.notes) setup.log.warning(note)
  const comment = setup.openComment({ state: record.state, commentId: record.id, find: false })
  comment?.show(view)
  await comment?.settle()
}

/** How a note on the docs pull request names the code pull request, up to what happened to it. */
function aboutSource(pull: PullRequestFacts): string {
  const source = pull.url === '' ? `pull request #${pull.number}` : pull.url
  return `The code pull request ${source}, which this docs pull request documents,`
}

/** What could not be done on the docs pull request, in our own words. */
function warningsOf(done: readonly (Done<unknown> | undefined)[]): string[] {
  return done.flatMap((result) => (result?.kind === 'warning' ? [result.warning] : []))
}

function docsPull(setup: StepSetup, url: string): PullRef | undefined {
  const link = checkPrLink(url, setup.githubHosts, setup.redact)
  return link.kind === 'link' ? link.pullRequest : undefined
}

/**
 * The note (and label) on the docs pull request, or closing it; what could not be done, in our own words. A docs pull
 * request closed or merged already was someone's decision: it is left as it is, and told nothing.
 */
async function tellDocs(
  setup: StepSetup,
  pull: PullRequestFacts,
  ref: PullRef,
  { how, startedAt }: { readonly how: 'merged' | 'closed'; readonly startedAt: number }
): Promise<Told> {
  const { pulls, settings } = setup
  if (pulls === undefined)
    return { end: undefined, notes: ['The docs pull request was not told: GitHub could not be set up.'] }
  const documents = aboutSource(pull)
  if (how === 'merged') {
    const merged = await mergeApproved(setup, ref, startedAt)
    if (merged === 'merged') return { end: 'merged', notes: [], mergedToo: true }
    const done: Done<unknown>[] = [await pulls.comment(ref, `${documents} was merged.`)]
    if (settings.pair.mergedLabel !== undefined) done.push(await pulls.label(ref, settings.pair.mergedLabel))
    return { end: 'merged', notes: [...(merged?.startsWith('Could not') ? [merged] : []), ...warningsOf(done)] }
  }
  const closed = await pulls.close(ref)
  if (closed.kind === 'warning') return { end: undefined, notes: [closed.warning] }
  if (closed.value !== 'closed') return { end: 'found-closed', notes: [], already: closed.value }
  const note = `${documents} was closed without merging, so this docs pull request is closed too.`
  return { end: 'closed', notes: warningsOf([await pulls.comment(ref, note)]) }
}

/** Once a job that replaces an earlier docs pull request has opened its own, the earlier one is closed, saying why. */
export async function closeSuperseded(
  setup: StepSetup,
  decision: Decision<Paired> & { kind: 'job' },
  result: WaitResult
): Promise<void> {
  const earlier = decision.extra?.supersedes
  const opened = result.job?.pr
  if (earlier === undefined || result.kind !== 'completed' || opened?.kind !== 'link') return
  const ref = docsPull(setup, earlier)
  if (ref === undefined || opened.url.href === earlier || setup.pulls === undefined) return
  const body = `Superseded by ${opened.url.href}, which a new agent job opened when the job of this one could take no follow-up.`
  const failed = warningsOf([await setup.pulls.comment(ref, body), await setup.pulls.close(ref)])
  for (const warning of failed) setup.log.warning(warning)
  if (failed.length === 0) setup.log.info(`Closed ${earlier}: superseded by ${opened.url.href}.`)
}

/**
 * With `merge-approved`: the docs pull request merged at once when approved (and no change asked), mergeable and its
 * checks pass. `merged`, or why not (a warning starts "Could not"); undefined without `merge-approved`.
 */
async function mergeApproved(setup: StepSetup, ref: PullRef, startedAt: number): Promise<string | undefined> {
  const docs = setup.settings.pair.mergeApproved ? setup.sweep?.(`${ref.owner}/${ref.repo}`) : undefined
  if (docs === undefined) return undefined
  const pull = {
    number: ref.number,
    title: '',
    author: { login: '', bot: true },
    createdAt: 0,
    updatedAt: 0,
    headSha: ''
  }
  const details = await docs.details(pull)
  if (details.kind === 'warning') return details.warning
  const blocker = openedBefore(details.value.createdAt, startedAt)
    ? "it was opened before its job started, so it is not the job's"
    : mergeBlocker(details.value)
  const checks = blocker === undefined ? await docs.checks(details.value.headSha) : undefined
  if (checks?.kind === 'warning') return checks.warning
  const why =
    blocker ??
    (checks?.value === 'pass' ? undefined : `its checks ${checks?.value === 'fail' ? 'failed' : 'have not passed yet'}`)
  if (why !== undefined) {
    setup.log.info(
      `The docs pull request is not merged with its code (${why}): a sweep with merge-approved takes it later.`
    )
    return why
  }
  const merged = await docs.merge(ref.number, details.value.headSha)
  return merged.kind === 'done' ? 'merged' : merged.warning
}
