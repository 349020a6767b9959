// What the sweep does about each pull request its plan acts on, oldest first: a close with a comment that says why, a
// merge at the head it judged, or a follow-up to a conflicted pull request's job. A close that lands whose comment
// cannot be written is still a close: the comment's failure is warned. Each is tried once a run (see
// github/docs-sweep.ts for never twice); what fails is said and nothing more is tried on that pull request.
import type { AgentRecord } from '../../github/agent-records.ts'
import { type DocsSweep, SWEEP_MARK } from '../../github/docs-sweep.ts'
import type { Done } from '../../github/pulls.ts'
import type { Service } from '../../decide/decision.ts'
import type { Logger } from '../../runner/io.ts'
import { forLog } from '../../text/untrusted.ts'
import type { Planned } from './plan.ts'

/** Sends the record's job a follow-up, recorded on its tracking comment first (the never-twice rule of every prompt). */
export type FollowUp = (record: AgentRecord) => Promise<FollowUpResult>
export type FollowUpResult = { readonly kind: 'sent' } | { readonly kind: 'not-sent'; readonly reason: string }

export interface Acting {
  readonly github: Pick<Service<DocsSweep>, 'close' | 'explain' | 'merge'>
  readonly followUp: FollowUp
  readonly log: Logger
}

/** What was done about one pull request: `failed` says why in `detail`, and nothing more was tried. */
export interface Outcome {
  readonly number: number
  readonly result: 'closed' | 'merged' | 'asked' | 'failed'
  readonly detail: string
}

/** Carries out the plan's actions, one pull request after another, oldest first. */
export async function act(planned: readonly Planned[], acting: Acting): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  for (const entry of planned) {
    if (entry.step !== 'act' || entry.action === undefined) continue
    const outcome = await actOn(entry, acting)
    const detail = outcome.detail ? ` (${forLog(outcome.detail, 300)})` : ''
    if (outcome.result === 'failed') acting.log.warning(`#${entry.pull.number}: not done${detail}`)
    else if (outcome.detail.startsWith('Could not'))
      acting.log.warning(`#${entry.pull.number}: ${outcome.result}${detail}`)
    else acting.log.info(`#${entry.pull.number}: ${outcome.result}${detail}.`)
    outcomes.push(outcome)
  }
  return outcomes
}

async function actOn(entry: Planned, acting: Acting): Promise<Outcome> {
  const { number } = entry.pull
  switch (entry.action) {
    case 'merge-approved':
      return outcomeOf(number, await acting.github.merge(number, entry.head))
    case 'update-conflicted': {
      if (entry.record === undefined) return { number, result: 'failed', detail: 'no job is recorded for it' }
      const sent = await acting.followUp(entry.record)
      return sent.kind === 'sent'
        ? { number, result: 'asked', detail: `agent job ${forLog(entry.record.job, 80)} asked to update its branch` }
        : { number, result: 'failed', detail: sent.reason }
    }
    default: {
      const closed = await acting.github.close(number)
      if (closed.kind === 'warning') return outcomeOf(number, closed)
      const said = await acting.github.explain(number, commentOf(entry))
      return { number, result: 'closed', detail: said.kind === 'warning' ? said.warning : '' }
    }
  }
}

function outcomeOf(number: number, done: Done<'closed' | 'merged'>): Outcome {
  return done.kind === 'done'
    ? { number, result: done.value, detail: '' }
    : { number, result: 'failed', detail: `${done.warning} Nothing more was tried on it; the next sweep looks again.` }
}

/** The comment a close leaves: the sweep's mark, then why, in its own words and links. */
export function commentOf(entry: Planned): string {
  const body =
    entry.finding === 'orphaned'
      ? `The code pull request ${entry.link ?? ''}, which this docs pull request documents, was closed without merging, so this docs pull request is closed too.`
      : entry.finding === 'superseded'
        ? `Superseded by ${entry.link ?? ''}, a newer docs pull request for the same ${entry.record?.origin === 'batch' ? 'batch' : 'code pull request'}.`
        : `${entry.why.charAt(0).toUpperCase()}${entry.why.slice(1)}, so this docs pull request is closed. To keep it, reopen it: a docs pull request a person commits to or reviews is never closed as stale. To have the docs written anew, ask where they were asked (the code pull request, the issue, or the next batch).`
  return `${SWEEP_MARK}: ${entry.finding} -->\n${body}\n\n<sub>Closed by the docs sweep (mode: sweep).</sub>`
}
