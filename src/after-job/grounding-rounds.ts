// The grounding check as the step runs it once the job has ended: checked, and with `grounding: fix`, the agent asked
// to correct what the code does not have (one follow-up a round, through the never-twice rule, then a wait and a
// check again, at most `grounding-rounds` times); then told in the review on the docs pull request and the log. A
// follow-up that is refused or finds the quota spent ends the rounds, and the findings are reported: never red by
// itself.
import type { Decision, StepSetup } from '../decide/decision.ts'
import { findEarlierAttempt, isRerun } from '../decide/rerun.ts'
import { sendPrompt } from '../decide/send.ts'
import { readTracked, runRecord } from '../decide/tracked.ts'
import { promptHash } from '../github/tracking-record.ts'
import { findingLine, type Grounding, groundingLines } from '../report/grounding-report.ts'
import type { TrackingComment } from '../report/tracking-comment.ts'
import { codeSpan, forLog } from '../text/untrusted.ts'
import type { WaitResult } from '../wait/job-wait.ts'
import { type Checked, groundingCheck } from './grounding.ts'
import { followUpPrompt } from './grounding-verdict.ts'

/** The job the rounds follow up, and the wait for it after a follow-up. */
export interface GroundedJob {
  readonly jobId: string
  readonly comment: TrackingComment | undefined
  readonly waitAgain: () => Promise<WaitResult>
}

/** What came of the check, and the job's result after the last round (the same result when none was sent). */
export interface Grounded {
  readonly result: WaitResult
  readonly grounding: Grounding | undefined
}

/** What the record of the follow-up of round `round` says, as the workflow gives it: a re-run looks for it. */
export function roundPrompt(round: number): string {
  return `Check the code names your pull request adds against the code (grounding, round ${round})`
}

export async function groundJob(setup: StepSetup, job: GroundedJob, first: WaitResult): Promise<Grounded> {
  const { settings } = setup
  if (settings.grounding.mode === 'off') return { result: first, grounding: undefined }
  const check = groundingCheck(setup)
  let result = first
  let checked = await check.run(result)
  let asked = false
  let note: string | undefined
  for (let round = 1; round <= roundsOf(setup) && checked?.verdict.kind === 'ungrounded'; round++) {
    const sent = await askToCorrect(setup, job, checked, round)
    asked ||= sent.kind !== 'not sent'
    if (sent.kind !== 'sent') {
      note = sent.note
      break
    }
    result = await job.waitAgain()
    const again = await check.run(result)
    if (again === undefined) {
      note = `After the follow-up the job ended ${result.kind}, so its names were not checked again.`
      break
    }
    checked = again
  }
  const grounding = checked === undefined ? undefined : groundingOf(checked, asked, note)
  if (checked !== undefined && grounding !== undefined) await tell(setup, checked, grounding)
  return { result, grounding }
}

function roundsOf(setup: StepSetup): number {
  return setup.settings.grounding.mode === 'fix' ? setup.settings.grounding.rounds : 0
}

function groundingOf(checked: Checked, asked: boolean, note: string | undefined): Grounding {
  const { verdict } = checked
  switch (verdict.kind) {
    case 'unchecked':
      return verdict
    case 'passed':
      return { kind: asked ? 'fixed' : 'passed', names: verdict.names }
    case 'ungrounded':
      return { kind: 'ungrounded', names: verdict.names, findings: checked.findings, note }
  }
}

type Asked =
  | { readonly kind: 'sent' }
  /** `sent before`: an earlier attempt of this run sent it (or may have); `not sent`: it was not, and why. */
  | { readonly kind: 'sent before' | 'not sent'; readonly note: string }

/** One follow-up listing the names, unless an earlier attempt of this run sent this round's already. */
async function askToCorrect(setup: StepSetup, job: GroundedJob, checked: Checked, round: number): Promise<Asked> {
  const run = runRecord(setup)
  const prompt = roundPrompt(round)
  const before = await sentBefore(setup, run, prompt, job.jobId)
  if (before !== undefined) return { kind: 'sent before', note: before }
  if (job.comment === undefined) {
    return {
      kind: 'not sent',
      note: 'No follow-up was sent: it is recorded on the tracking comment first, which could not be written.'
    }
  }
  const findings = checked.verdict.kind === 'ungrounded' ? checked.verdict.findings : []
  const text = (): Promise<string> => Promise.resolve(followUpPrompt(findings))
  const target = { kind: 'follow-up', jobId: job.jobId } as const
  const decided: Decision = await sendPrompt(setup, run, { prompt, target, text }, job.comment)
  if (decided.kind === 'job') return { kind: 'sent' }
  return {
    kind: 'not sent',
    note: `The follow-up asking the agent to correct them was not sent: ${forLog(decided.reason, 300)}`
  }
}

/** On a re-run: why this round's follow-up is not sent, when an earlier attempt of this run sent it or may have. */
async function sentBefore(
  setup: StepSetup,
  run: ReturnType<typeof runRecord>,
  prompt: string,
  jobId: string
): Promise<string | undefined> {
  const { thread, settings } = setup
  if (thread === undefined || !isRerun(setup, thread)) return undefined
  const read = await readTracked(setup, false)
  if (read.kind !== 'read')
    return 'Whether an earlier attempt of this run already sent the follow-up could not be read: it is not sent, so that it is never sent twice.'
  const wanted = { run: run.id, attempt: run.attempt, step: run.step, prompt: promptHash(prompt) }
  const earlier = findEarlierAttempt(read.tracked, { ...wanted, project: settings.projectId, job: jobId })
  return earlier === undefined
    ? undefined
    : 'An earlier attempt of this run already sent (or may have sent) the follow-up asking the agent to correct them: it is not sent again.'
}

const REPLACED = 'Replaced by a later grounding check of this pull request.'

/** The log (one line a name) and the review on the docs pull request. */
async function tell(setup: StepSetup, checked: Checked, grounding: Grounding): Promise<void> {
  const { log } = setup
  if (grounding.kind === 'unchecked') {
    log.warning(`Grounding: the code names were not checked: ${forLog(grounding.reason, 300)}.`)
    return
  }
  if (grounding.kind !== 'ungrounded') {
    log.info(
      `Grounding: ${grounding.kind}; every code name the docs pull request adds (${grounding.names}) is found in the code.`
    )
  } else {
    log.warning(
      `Grounding: ${grounding.findings.length} of ${grounding.names} code names the docs pull request adds are found nowhere in the code:`
    )
    for (const finding of grounding.findings) log.info(`  not found: ${findingLine(finding)}`)
  }
  const post = grounding.kind === 'ungrounded' ? reviewOf(grounding) : undefined
  const done = await setup.codeReads?.review.replace(checked.pull, post, REPLACED)
  if (done?.kind === 'warning') log.warning(`Grounding: ${done.warning}`)
}

function reviewOf(grounding: Grounding & { kind: 'ungrounded' }) {
  const body = [
    '**Mintlify docs: code names not found in the code**',
    'Each is found nowhere in the code, in the docs before this pull request, or in what it removes. Check it against the code: correct it to what the code calls it, or remove it; a name that is right (from another package, say) can go in `grounding-ignore`.',
    ...groundingLines(grounding)
  ].join('\n')
  const lines = grounding.findings.map((finding) => ({
    path: finding.path,
    line: finding.line,
    body: `${codeSpan(forLog(finding.name, 120))} is not found in the code, in the docs before this pull request, or in what it removes: check it against the code, and correct it or remove it.`
  }))
  return { body, lines }
}
