// With `mode: pair`: one docs pull request kept in step with each code pull request, from open to merge. The tracking
// comment on the code pull request is the record: the job, and the head commit each prompt described, so that a
// follow-up carries only the commits since, never one twice and never one skipped.
import { checkPrLink } from '../admin-api/agent-job.ts'
import type { EventChange, PullRequestFacts } from '../github/change.ts'
import type { Done, PullRef } from '../github/pulls.ts'
import type { CommentView } from '../report/comment-body.ts'
import type { StoredComment } from '../github/tracking-comments.ts'
import type { WaitResult } from '../wait/job-wait.ts'
import { type SourceEnd, UNKNOWN_JOB } from '../github/tracking-record.ts'
import { composePrompt } from '../prompt/compose.ts'
import { forLog } from '../text/untrusted.ts'
import { earlierAttempt, lastTrackedJob, readTracked, runRecord } from './tracked.ts'
import type { Decision, StepSetup } from './decision.ts'
import { beforeSpending } from './gates.ts'
import { type RunRecord, sendPrompt } from './send.ts'

/** The events of a pull request that ask for docs: a start, or a follow-up with what is new. */
const OPENING = new Set(['opened', 'reopened', 'ready_for_review'])

export async function decidePair(setup: StepSetup, change: EventChange): Promise<Decision> {
  const { settings } = setup
  const pull = change.facts
  if (pull.kind !== 'pull-request') {
    return {
      kind: 'error',
      reason: `mode: pair keeps a docs pull request in step with a code pull request, so it runs on pull_request and pull_request_target events; this run has nothing to pair (${pull.kind === 'none' ? pull.reason : `a ${pull.kind}`}). Run it on: pull_request with types [opened, reopened, ready_for_review, synchronize, closed].`
    }
  }
  const none = noneReason(setup, pull) ?? (await ownDocsPull(setup, pull))
  if (none !== undefined) return skipped(setup, none)
  const read = await readTracked(setup, true)
  if (read.kind !== 'read') return read
  const run = runRecord(setup)
  const prompt = settings.prompt ?? ''
  const earlier = await earlierAttempt(setup, read.tracked, run, prompt)
  if (earlier) return earlier
  const tracked = lastTrackedJob(read.tracked, settings.projectId)
  if (pull.action === 'closed') return endOfSource(setup, pull, tracked)
  const open = tracked?.state.source === 'closed' ? await reopenDocs(setup, pull, tracked) : undefined
  const record = open === undefined ? tracked : open.record
  const gated = await beforeSpending(setup)
  if (gated) return gated
  if (record === undefined) return start(setup, run, pull, undefined)
  const decided = await followUp(setup, run, pull, record)
  return open?.reopened === true && decided.kind === 'skipped' ? { ...decided, action: 'reopened' } : decided
}

/** Why this event of the pull request asks for nothing, if it does not. */
function noneReason(setup: StepSetup, pull: PullRequestFacts): string | undefined {
  const name = `pull request #${pull.number}`
  if (pull.action === 'closed') return undefined
  if (pull.action !== 'synchronize' && !OPENING.has(pull.action)) {
    return `a "${forLog(pull.action, 40)}" event of ${name} changes nothing the docs describe`
  }
  if (pull.draft && !setup.settings.pair.drafts) {
    return `${name} is a draft: its docs wait until it is ready for review (or set pair-drafts: true)`
  }
  if (pull.headSha === '') return `the event gives no head commit of ${name}, so it cannot be described`
  return undefined
}

/** A pull request a job of ours opened (code and docs may share a repository): told by the records, not the author. */
async function ownDocsPull(setup: StepSetup, pull: PullRequestFacts): Promise<string | undefined> {
  if (pull.action === 'closed' || pull.url === '' || setup.reads === undefined) return undefined
  // The record names the pull request once the job that opened it ends, after the pull request was created.
  if (!(await setup.reads.recordsAsDocs(pull.url, pull.createdAt ?? 0))) return undefined
  return `pull request #${pull.number} is a docs pull request a job of this action opened (loop prevention)`
}

function skipped(setup: StepSetup, reason: string, action?: 'merged' | 'closed' | 'reopened'): Decision {
  setup.log.info(`Nothing is sent to the agent: ${reason}.`)
  return action ? { kind: 'skipped', reason, action } : { kind: 'skipped', reason }
}

/** A new job for the whole pull request; `supersedes`, the earlier docs pull request it replaces. */
async function start(
  setup: StepSetup,
  run: RunRecord,
  pull: PullRequestFacts,
  supersedes: string | undefined
): Promise<Decision> {
  const { settings, log } = setup
  const prompt = settings.prompt ?? ''
  const state = { job: UNKNOWN_JOB, requests: [], ...(supersedes ? { supersedes } : {}) }
  const comment = setup.openComment({ state, find: false })
  const note = supersedes === undefined ? '' : `\n\n${supersedeNote(supersedes)}`
  const text = async (): Promise<string> => `${await setup.compose(prompt)}${note}`
  const decided = await sendPrompt(setup, run, { prompt, target: { kind: 'start' }, text, head: pull.headSha }, comment)
  if (decided.kind === 'job' && supersedes !== undefined) {
    log.info(`The new job's pull request will replace ${supersedes}, which is closed once the new one is open.`)
    return { ...decided, supersedes }
  }
  return decided
}

/** Our own instruction when a job replaces an earlier one's docs pull request. */
function supersedeNote(earlier: string): string {
  return (
    '## An instruction from the workflow\n\n' +
    `This job supersedes the docs pull request ${earlier}, whose job could take no follow-up: it will be closed ` +
    'once yours is open. Cover the whole pull request described above in your own pull request.'
  )
}

/** A follow-up to the recorded job with what changed since the head its last prompt described. */
async function followUp(
  setup: StepSetup,
  run: RunRecord,
  pull: PullRequestFacts,
  record: StoredComment
): Promise<Decision> {
  const { settings, log, reads } = setup
  const prompt = settings.prompt ?? ''
  const described = record.state.requests.findLast((request) => request.head !== undefined)?.head
  const name = `pull request #${pull.number}`
  if (described === pull.headSha)
    return skipped(setup, `nothing is new in ${name} since the last prompt (head ${short(described)})`)
  let text = (): Promise<string> => setup.compose(prompt)
  if (described === undefined || reads === undefined) {
    log.info(`No head of ${name} is recorded: the whole pull request is described again.`)
  } else {
    const since = await reads.since(pull, described)
    const status = since.fetched.compareStatus
    if (status === 'behind' || status === 'identical') {
      return skipped(setup, `a newer head of ${name} than this run's (${short(pull.headSha)}) is already described`)
    }
    if (status === 'ahead') {
      text = () => Promise.resolve(composePrompt(prompt, settings, since, setup.redact, log))
    } else {
      log.info(
        `The head the last prompt described (${short(described)}) is no longer in ${name}'s history (a force-push): the whole pull request is described again.`
      )
    }
  }
  const target = { kind: 'follow-up', jobId: record.state.job } as const
  const comment = setup.openComment({ state: record.state, commentId: record.id, find: false })
  const decided = await sendPrompt(setup, run, { prompt, target, text, head: pull.headSha }, comment)
  if (decided.kind !== 'error' || !refusedForItsState(decided.refusedWith)) return decided
  log.warning(
    `Agent job "${forLog(record.state.job, 80)}" took no follow-up (${decided.reason}): a new job is started for the whole pull request, to replace its docs pull request.`
  )
  const replaced = await start(setup, run, pull, record.state.pr ?? `the docs of agent job ${record.state.job}`)
  // The refused job's comment says so, and where the new job is followed, rather than "Sending the prompt" for good.
  comment?.show({ kind: 'superseded', reason: decided.reason, next: replaced.comment?.url() })
  await comment?.settle()
  return replaced
}

/** A 400 (or 409, 422) to a follow-up: the job's state may take none (which do is not documented). */
function refusedForItsState(status: number | undefined): boolean {
  return status === 400 || status === 409 || status === 422
}

function short(sha: string | undefined): string {
  return (sha ?? '').slice(0, 7)
}

/** The code pull request ended: its docs pull request is told (merged), or closed (closed unmerged). */
async function endOfSource(
  setup: StepSetup,
  pull: PullRequestFacts,
  record: StoredComment | undefined
): Promise<Decision> {
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
      : await tellDocs(setup, pull, ref, how)
  const { notes, already } = told
  // Not told: nothing is recorded, so that the next delivery of the event tries again.
  const state = told.end === undefined ? record.state : { ...record.state, source: told.end }
  await showSource(setup, { ...record, state }, { kind: 'source', how, docs, notes, ...(already ? { already } : {}) })
  const done = already
    ? `${already === 'merged' ? 'merged' : 'closed'} already, and is left as it is`
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
}

/**
 * The code pull request is open again after the action closed its docs pull request: that one is reopened too, so
 * that follow-ups land where a reviewer sees them. When GitHub will not (its branch is gone, or it was merged), the
 * next job starts anew (undefined); when it cannot be reached, the job is followed up, and a later event tries again.
 */
async function reopenDocs(
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
  how: 'merged' | 'closed'
): Promise<Told> {
  const { pulls, settings } = setup
  if (pulls === undefined)
    return { end: undefined, notes: ['The docs pull request was not told: GitHub could not be set up.'] }
  const documents = aboutSource(pull)
  if (how === 'merged') {
    const done: Done<unknown>[] = [await pulls.comment(ref, `${documents} was merged.`)]
    if (settings.pair.mergedLabel !== undefined) done.push(await pulls.label(ref, settings.pair.mergedLabel))
    return { end: 'merged', notes: warningsOf(done) }
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
  decision: Decision & { kind: 'job' },
  result: WaitResult
): Promise<void> {
  const earlier = decision.supersedes
  const opened = result.job?.pr
  if (earlier === undefined || result.kind !== 'completed' || opened?.kind !== 'link') return
  const ref = docsPull(setup, earlier)
  if (ref === undefined || opened.url.href === earlier || setup.pulls === undefined) return
  const body = `Superseded by ${opened.url.href}, which a new agent job opened when the job of this one could take no follow-up.`
  const failed = warningsOf([await setup.pulls.comment(ref, body), await setup.pulls.close(ref)])
  for (const warning of failed) setup.log.warning(warning)
  if (failed.length === 0) setup.log.info(`Closed ${earlier}: superseded by ${opened.url.href}.`)
}
