// Requests from people, with `command` or `label`: first whether the person may ask (never a bot, nor the token's own
// identity; at least `command-permission` on the repository), then what they asked: a job started or followed up with
// their words (with a label, with `prompt`), the recorded job's state, or how to ask. The comment that asked gets
// `eyes` once accepted, `rocket` when the job completes with a pull request, `confused` when refused or failed.
import type { PersonRequest, RequestDesk, RequestRead } from '../../github/desk.ts'
import { THREAD_EVENTS } from '../../runner/events.ts'
import type { Logger } from '../../runner/io.ts'
import { mayAsk, type RequestSettings, takesRequests } from '../../inputs/mode-settings.ts'
import type { Settings } from '../../inputs/settings.ts'
import { UNKNOWN_JOB } from '../../github/tracking-record.ts'
import { codeSpan, errorMessage, forLog } from '../../text/untrusted.ts'
import { isTerminal } from '../../text/outcome.ts'
import type { WaitResult } from '../../wait/job-wait.ts'
import { requestBudget } from '../../wait/retry.ts'
import { earlierAttempt, lastTrackedJob, readTracked, runRecord } from '../../decide/tracked.ts'
import type { Decision, Service, StepSetup } from '../../decide/decision.ts'
import { jobCap, sameLogin } from '../../decide/gates.ts'
import { sendPrompt } from '../../decide/send.ts'

/** A person's request, with `command` or `label`: who asked, what the step did with it, and their words. */
export interface HandledRequest {
  readonly by: string
  /** `commanded` once a job was started or followed up for them. */
  readonly taken: 'commanded' | 'status-replied' | 'usage-replied' | 'refused' | 'none'
  /** Their instructions, when they gave any: the prompt sent. */
  readonly prompt?: string | undefined
}

export async function decideRequest(
  setup: StepSetup,
  desk: Service<RequestDesk>,
  read: RequestRead
): Promise<Decision<HandledRequest>> {
  const { log } = setup
  if (read.kind === 'ignored') return { kind: 'skipped', reason: read.reason }
  const { request } = read
  const who = request.by === '' ? 'someone' : `"${forLog(request.by, 60)}"`
  const self = await setup.login()
  if (self !== undefined && sameLogin(request.by.toLowerCase(), self)) {
    return { kind: 'skipped', reason: "the token's own comment" }
  }
  const allowed = await mayItAsk(setup, desk, request, who)
  if (allowed !== undefined) return allowed
  log.info(`A request from ${who}, on #${request.number}.`)
  await desk.react(request, 'eyes')
  const asked = (taken: HandledRequest['taken'], prompt?: string): HandledRequest => ({ by: request.by, taken, prompt })
  switch (request.command.kind) {
    case 'usage':
      await desk.reply(request, usage(setup))
      return { kind: 'skipped', reason: 'the command holds no instructions', extra: asked('usage-replied') }
    case 'status':
      return showStatus(setup, desk, request, asked('status-replied'))
    case 'ask':
    case 'label': {
      const prompt = request.command.kind === 'ask' ? request.command.text : (setup.settings.prompt ?? '')
      const fresh = request.command.kind === 'ask' && request.command.fresh
      const decided = await sendAsked(setup, prompt, fresh, asked('commanded', prompt))
      const { label } = setup.settings.requests
      if (request.command.kind === 'label' && label !== undefined && setup.settings.requests.labelRemove) {
        await desk.removeLabel(request, label)
      }
      if (decided.kind !== 'job') await desk.react(request, 'confused')
      return decided
    }
  }
}

/**
 * Whether the run keeps a check run, given what the event asked: any run that is not a request, and a request only
 * once it sent a prompt. A refusal, a status or a usage reply says nothing of the commit, and must not stand in for
 * the check a pull request requires; a comment that asks nothing gets nothing at all.
 */
export function keepsCheck(read: RequestRead | undefined, decision: Decision<unknown>): boolean {
  return read === undefined || (read.kind === 'request' && decision.kind === 'job')
}

/** The decision that the person may not ask, after saying so on GitHub; undefined when they may. */
async function mayItAsk(
  setup: StepSetup,
  desk: Service<RequestDesk>,
  request: PersonRequest,
  who: string
): Promise<Decision<HandledRequest> | undefined> {
  const needed = setup.settings.requests.permission
  let role
  try {
    role = await desk.role(request.by)
  } catch (error) {
    await desk.react(request, 'confused')
    const why = forLog(setup.redact(errorMessage(error)), 200)
    const reason = `Could not read whether ${who} may ask (their permission on the repository: ${why}). Nothing was sent; run the step again.`
    return { kind: 'error', reason, extra: { by: request.by, taken: 'none' } }
  }
  if (mayAsk(role, needed)) return undefined
  const word = setup.settings.requests.command
  const how = request.command.kind === 'label' ? 'with this label' : word ? `with ${codeSpan(word)}` : ''
  await desk.reply(
    request,
    `Only people with ${codeSpan(needed)} access to this repository or more can ask for docs ${how}; ${codeSpan(request.by || 'this account')} has ${codeSpan(role)}. Nothing was sent to the agent.`
  )
  await desk.react(request, 'confused')
  const reason = `${who} may not ask: they have ${role} access, and command-permission asks for ${needed}`
  return { kind: 'skipped', reason, extra: { by: request.by, taken: 'refused' } }
}

/** A follow-up of the job recorded on the issue or pull request, or a new job when none is or `fresh` asks one. */
async function sendAsked(
  setup: StepSetup,
  prompt: string,
  fresh: boolean,
  asked: HandledRequest
): Promise<Decision<HandledRequest>> {
  const read = await readTracked(setup, true)
  if (read.kind !== 'read') return { ...read, extra: asked }
  const run = runRecord(setup)
  const earlier = await earlierAttempt(setup, read.tracked, run, prompt)
  if (earlier) return { ...earlier, extra: asked }
  const capped = await jobCap(setup)
  if (capped) return { ...capped, extra: asked }
  const last = fresh ? undefined : lastTrackedJob(read.tracked, setup.settings.projectId)
  const target = last ? { kind: 'follow-up' as const, jobId: last.state.job } : { kind: 'start' as const }
  const start = last
    ? { state: last.state, commentId: last.id, find: false }
    : { state: { job: UNKNOWN_JOB, requests: [] }, find: false }
  const decided = await sendPrompt(setup, run, { prompt, target, asked: true }, setup.openComment(start))
  return { ...decided, extra: asked }
}

/**
 * `status`: the recorded job, read once, shown in its tracking comment's status line; a short reply when none is
 * recorded. Nothing is sent to the agent.
 */
async function showStatus(
  setup: StepSetup,
  desk: Service<RequestDesk>,
  request: PersonRequest,
  asked: HandledRequest
): Promise<Decision<HandledRequest>> {
  const read = await readTracked(setup, true)
  if (read.kind !== 'read') return { ...read, extra: asked }
  const last = lastTrackedJob(read.tracked, setup.settings.projectId)
  if (last === undefined) {
    await desk.reply(request, `No agent job is recorded here yet. ${usage(setup)}`)
    return { kind: 'skipped', reason: 'status: no agent job is recorded here', extra: asked }
  }
  const jobId = last.state.job
  const answer = await setup.api.getJob(
    jobId,
    requestBudget(setup.settings.requestTimeoutMs, setup.deadline, setup.clock.now())
  )
  if (answer.kind !== 'job') {
    const why =
      answer.kind === 'cancelled'
        ? 'the run was cancelled'
        : answer.kind === 'not found'
          ? answer.described
          : answer.reason
    return {
      kind: answer.kind === 'cancelled' ? 'cancelled' : 'error',
      reason: `Could not read agent job "${forLog(jobId, 80)}" for its status: ${why}`,
      jobId,
      extra: asked
    }
  }
  const { job } = answer
  const comment = setup.openComment({ state: last.state, commentId: last.id, find: false })
  if (isTerminal(job.status)) {
    const result = { kind: job.status, polls: 1, faults: 0, elapsedMs: 0, job }
    await comment?.end({ kind: 'ended', result, message: '', timeoutMs: setup.settings.timeoutMs })
  } else {
    comment?.show({ kind: 'active' })
    await comment?.settle()
  }
  setup.log.info(`Agent job "${forLog(jobId, 80)}" is ${forLog(job.status, 40)}; its tracking comment says so.`)
  return {
    kind: 'skipped',
    reason: `status: agent job "${forLog(jobId, 80)}" is ${forLog(job.status, 40)}`,
    jobId,
    job,
    extra: asked
  }
}

/** The one-line reply to a command with no instructions. */
function usage(setup: StepSetup): string {
  const word = setup.settings.requests.command ?? ''
  const span = (rest: string): string => codeSpan(`${word}${rest}`)
  return `Ask with ${span(' <instructions>')} (follows up the job recorded here, or starts one), ${span(' new <instructions>')} (always a new job) or ${span(' status')}.`
}

/** Once the job asked for ends: `rocket` on the comment that asked when it completed with a pull request, else `confused`. */
export async function answerRequest(
  setup: StepSetup,
  decision: Decision<HandledRequest>,
  result: WaitResult
): Promise<void> {
  const read = setup.desk?.read
  if (read?.kind !== 'request' || decision.extra?.taken !== 'commanded') return
  const opened = result.kind === 'completed' && result.job?.pr.kind === 'link'
  if (opened) await setup.desk?.react(read.request, 'rocket')
  else if (result.kind !== 'completed') await setup.desk?.react(read.request, 'confused')
}

/**
 * Whether the step answers people and this event asks nothing of it: an event of a kind (or with an action) that can
 * never be a request under its inputs. It then ends at once, and sets up nothing on GitHub.
 */
export function asksNothing(settings: Settings, read: RequestRead | undefined): boolean {
  return settings.mode === 'single' && takesRequests(settings.requests) && read === undefined
}

/**
 * The step answers only requests, and this event can never be one: skipped, with no request at all. On an event of an
 * issue or a pull request (a merged pull request, say), where the step was likely meant to act too, one warning says
 * so in the inputs' terms; on any other (a push, a release, a schedule), the skip's own line is all.
 */
export function unasked(
  requests: RequestSettings,
  event: { readonly name: string; readonly action: string | undefined },
  log: Logger
): Decision & { readonly kind: 'skipped' } {
  const asks = whatAsks(requests)
  if (THREAD_EVENTS.has(event.name)) {
    const action = event.action ? ` (${forLog(event.action, 40)})` : ''
    const inputs = [requests.command && '"command"', requests.label && '"label"'].filter(Boolean).join(' and ')
    log.warning(
      `This step has ${inputs}, so it acts only when asked, and only ${asks} asks: nothing is sent for this "${event.name}" event${action}. To act on such events too, run a step of its own for them, without "command" or "label".`
    )
  }
  return { kind: 'skipped', reason: `no request: only ${asks} asks` }
}

/** What asks, in the inputs' terms: a comment that starts with the command, adding the label. */
function whatAsks(requests: RequestSettings): string {
  const comment = requests.command && `a comment that starts with ${forLog(requests.command, 40)}`
  const label = requests.label && `adding the label "${forLog(requests.label, 50)}"`
  return [label, comment].filter(Boolean).join(' or ')
}

/**
 * A step that answers people acts only when asked: a comment without the command, opening an issue, a push or taking
 * a label off asks nothing, and gets nothing, not a request to GitHub, not even a check run (in any mode: a pair's
 * code pull request's conversation too). The decision that says so; undefined when the event may ask.
 */
export function unaskedOf(
  setup: StepSetup,
  event: { readonly name: string; readonly action: string | undefined }
): Decision | undefined {
  const { settings, desk } = setup
  if (desk?.read?.kind === 'ignored') return { kind: 'skipped', reason: desk.read.reason }
  return asksNothing(settings, desk?.read) ? unasked(settings.requests, event, setup.log) : undefined
}
