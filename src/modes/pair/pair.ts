// With `mode: pair`: one docs pull request kept in step with each code pull request, from open to merge. The tracking
// comment on the code pull request is the record: the job, and the head commit each prompt described, so that a
// follow-up carries only the commits since, never one twice and never one skipped.
import type { PullRequestFacts } from '../../github/change.ts'
import type { StoredComment } from '../../github/comment-store.ts'
import { UNKNOWN_JOB } from '../../github/tracking-record.ts'
import { composePrompt } from '../../prompt/compose.ts'
import { forLog } from '../../text/untrusted.ts'
import { earlierAttempt, lastTrackedJob, readTracked, runRecord } from '../../decide/tracked.ts'
import type { Decision, StepSetup } from '../../decide/decision.ts'
import { beforeSpending } from '../../decide/gates.ts'
import { type RunRecord, sendPrompt } from '../../decide/send.ts'
import { endOfSource, type Paired, reopenDocs, skipped } from './docs-pull.ts'

/** The events of a pull request that ask for docs: a start, or a follow-up with what is new. */
const OPENING = new Set(['opened', 'reopened', 'ready_for_review'])

export async function decidePair(setup: StepSetup): Promise<Decision<Paired>> {
  const { settings } = setup
  const change = await setup.reads?.change()
  if (change === undefined)
    return { kind: 'error', reason: 'mode: pair could not read the event: GitHub could not be set up.' }
  const pull = change.facts
  if (pull.kind !== 'pull-request') {
    return {
      kind: 'error',
      reason: `mode: pair keeps a docs pull request in step with a code pull request, so it runs on pull_request and pull_request_target events; this run has nothing to pair (${pull.kind === 'none' ? pull.reason : `a ${pull.kind}`}). Run it on: pull_request with types [opened, reopened, ready_for_review, synchronize, closed].`
    }
  }
  const none = noneReason(setup, pull)
  if (none !== undefined) return skipped(setup, none)
  const own = await ownDocsPull(setup, pull)
  if (own !== undefined) return own
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
  return open?.reopened === true && decided.kind === 'skipped' ? { ...decided, extra: { told: 'reopened' } } : decided
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
async function ownDocsPull(setup: StepSetup, pull: PullRequestFacts): Promise<Decision<Paired> | undefined> {
  if (pull.action === 'closed' || pull.url === '' || setup.reads === undefined) return undefined
  // The record names the pull request once the job that opened it ends, after the pull request was created.
  const record = await setup.reads.recordsAsDocs(pull.url, pull.createdAt ?? 0)
  if (record.kind === 'unknown') {
    const reason = `Could not tell whether pull request #${pull.number} is a docs pull request a job of this action opened: ${record.why}. Nothing was sent, so that no job works on its own docs; run the step again.`
    return { kind: 'error', reason }
  }
  const own = `pull request #${pull.number} is a docs pull request a job of this action opened (loop prevention)`
  return record.kind === 'own' ? skipped(setup, own) : undefined
}

/** A new job for the whole pull request; `supersedes`, the earlier docs pull request it replaces. */
async function start(
  setup: StepSetup,
  run: RunRecord,
  pull: PullRequestFacts,
  supersedes: string | undefined
): Promise<Decision<Paired>> {
  const { settings, log } = setup
  const prompt = settings.prompt ?? ''
  const state = { job: UNKNOWN_JOB, requests: [], ...(supersedes ? { supersedes } : {}) }
  const comment = setup.openComment({ state, find: false })
  const note = supersedes === undefined ? '' : `\n\n${supersedeNote(supersedes)}`
  const text = async (): Promise<string> => `${await setup.compose(prompt)}${note}`
  const decided = await sendPrompt(setup, run, { prompt, target: { kind: 'start' }, text, head: pull.headSha }, comment)
  if (decided.kind === 'job' && supersedes !== undefined) {
    log.info(`The new job's pull request will replace ${supersedes}, which is closed once the new one is open.`)
    return { ...decided, extra: { supersedes } }
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
): Promise<Decision<Paired>> {
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
