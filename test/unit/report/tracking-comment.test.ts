// The tracking comment's lifecycle, with small budgets passed in and a GitHub side that answers when told to.
import { describe, expect, it } from 'vitest'
import type { CommentResult, CommentWrite } from '../../../src/github/comment-store.ts'
import { type Submission, type TrackingState, UNKNOWN_JOB } from '../../../src/github/tracking-record.ts'
import { TrackingComment } from '../../../src/report/tracking-comment.ts'
import { outputWriter } from '../../../src/runner/io.ts'
import { type Stage, STAGE_WORDING } from '../../../src/text/outcome.ts'
import type { WaitResult } from '../../../src/wait/job-wait.ts'

const BUDGETS = { deadlineMs: 400, cancelledDeadlineMs: 1500, minimumMs: 50, keptMs: 100 }
const REQUEST: Submission = {
  kind: 'start',
  run: '42',
  attempt: 1,
  prompt: 'hash',
  line: 'Document it',
  step: 'docs/agent'
}
type Answer = CommentResult | { readonly kind: 'withheld' }

/** The stage a write shows, read from its heading. */
function stageOf(write: CommentWrite): Stage | undefined {
  const text = write.render(write.state)
  const stages = Object.keys(STAGE_WORDING) as Stage[]
  return stages.find((stage) => text.startsWith(`${STAGE_WORDING[stage].emoji} **${STAGE_WORDING[stage].title}**`))
}

function harness(
  answer: (write: CommentWrite, deadlineMs: number) => Promise<Answer>,
  cancelled = false,
  start: TrackingState = { job: UNKNOWN_JOB, requests: [] },
  endsBy: () => number = () => Infinity,
  /** `frozen`: only `advance` moves the comment's clock, however long the machine takes between two lines. */
  clock: 'real' | 'frozen' = 'real'
) {
  let cancel = (): void => undefined
  const whenCancelled = new Promise<void>((resolve) => (cancel = resolve))
  const outputs: Record<string, string> = {}
  const warnings: string[] = []
  const infos: string[] = []
  const writes: { write: CommentWrite; deadlineMs: number }[] = []
  /** Time GitHub is taken to have spent, on the comment's clock, beyond the real time passed. */
  let spent = 0
  const runner = {
    outputs: outputWriter((name, value) => (outputs[name] = value)),
    log: { info: (message: string) => infos.push(message), warning: (message: string) => warnings.push(message) },
    date: () => 1000,
    now: () => (clock === 'frozen' ? 0 : performance.now()) + spent,
    cancelled: () => cancelled,
    whenCancelled,
    endsBy
  }
  const github = {
    run: { id: '42', attempt: 1, url: 'https://github.com/acme/docs/actions/runs/42' },
    write: (write: CommentWrite, deadlineMs: number) => {
      writes.push({ write, deadlineMs })
      return answer(write, deadlineMs)
    }
  }
  const comment = new TrackingComment(github, runner, { state: start, find: false }, BUDGETS)
  const advance = (ms: number): void => {
    spent += ms
  }
  return { comment, outputs, warnings, infos, writes, cancel, advance }
}

const ended = (kind: 'completed' | 'cancelled') =>
  ({
    kind: 'ended',
    result: { kind, polls: 1, elapsedMs: 10, job: undefined, faults: 0 } as WaitResult,
    message: 'done',
    timeoutMs: 1000
  }) as const
const never = () => new Promise<Answer>(() => undefined)
/** GitHub wrote the comment as asked. */
const written = (write: CommentWrite): Promise<Answer> =>
  Promise.resolve({
    kind: 'commented',
    commentId: 7,
    url: 'https://github.com/acme/docs/issues/1#c7',
    state: write.state
  })

describe('TrackingComment', () => {
  it('records a request as unsure before it is sent, then the job it started, in the same comment', async () => {
    const { comment, writes, outputs } = harness(written)
    await comment.recordBeforeSending(REQUEST)
    expect(writes).toHaveLength(1)
    expect(writes[0]?.write).toMatchObject({ commentId: undefined, state: { job: UNKNOWN_JOB } })
    expect(writes[0] && stageOf(writes[0].write)).toBe('sending')
    expect(writes[0]?.write.state.requests).toEqual([{ ...REQUEST, unsure: true }])
    comment.accepted(REQUEST, 'job-9')
    comment.show({ kind: 'active' })
    await comment.settle()
    expect(writes[1]?.write).toMatchObject({ commentId: 7, state: { job: 'job-9', requests: [REQUEST] } })
    expect(outputs['comment-url']).toBe('https://github.com/acme/docs/issues/1#c7')
    expect(comment.protectsReruns()).toBe(true)
  })

  it('stops waiting for the record when the run is cancelled, so the step can end before a slow GitHub answers', async () => {
    const { comment, cancel } = harness(never)
    const recorded = comment.recordBeforeSending(REQUEST)
    cancel()
    await expect(recorded).resolves.toBeUndefined()
    expect(comment.protectsReruns()).toBe(false)
  })

  it('withdraws a request that surely never reached the API, so a re-run may send it', async () => {
    const { comment, writes } = harness(written)
    await comment.recordBeforeSending(REQUEST)
    comment.withdraw(REQUEST)
    await comment.end(ended('completed'))
    expect(writes[1]?.write.state.requests).toEqual([])
    expect(comment.protectsReruns()).toBe(true)
  })

  it('says no end of the job from the moment a request is recorded until the job ends again', async () => {
    const done: TrackingState = {
      job: 'job-9',
      requests: [],
      ended: 'completed',
      pr: 'https://github.com/acme/docs/pull/7'
    }
    const { comment, writes } = harness(written, false, done)
    await comment.recordBeforeSending({ ...REQUEST, kind: 'follow-up' })
    expect(writes[0]?.write.state).not.toHaveProperty('ended')
    expect(writes[0]?.write.state.pr).toBe(done.pr)
  })

  it('says again how the job ended before when its only request is withdrawn', async () => {
    const { comment, writes } = harness(written, false, { job: 'job-9', requests: [], ended: 'completed' })
    const followUp: Submission = { ...REQUEST, kind: 'follow-up' }
    await comment.recordBeforeSending(followUp)
    comment.withdraw(followUp)
    comment.show({ kind: 'active' })
    await comment.settle()
    expect(writes[1]?.write.state).toMatchObject({ requests: [], ended: 'completed' })
  })

  it('withdraws the record of a request never sent with whatever time is left, under the minimum too', async () => {
    let release: () => void = () => undefined
    const slow = new Promise<void>((resolve) => (release = resolve))
    const { comment, writes, warnings, cancel, advance } = harness(
      async (write) => {
        if (stageOf(write) === 'sending') await slow
        return written(write)
      },
      true,
      undefined,
      undefined,
      'frozen'
    )
    const recorded = comment.recordBeforeSending(REQUEST)
    cancel()
    await recorded
    comment.withdraw(REQUEST)
    const ending = comment.end(ended('cancelled'))
    // The record lands with less than the minimum of the budget left.
    advance(BUDGETS.cancelledDeadlineMs - 20)
    release()
    await ending
    expect(writes.map(({ write }) => stageOf(write))).toEqual(['sending', 'cancelled'])
    expect(writes[1]?.write.state.requests).toEqual([])
    expect(warnings).toEqual([])
  })

  it('says re-runs are unprotected when the record of a sent request never landed, and says why once', async () => {
    const { comment, warnings } = harness(() => Promise.resolve({ kind: 'warning', warning: 'no permission' }))
    await comment.recordBeforeSending(REQUEST)
    comment.accepted(REQUEST, 'job-9')
    comment.show({ kind: 'active' })
    await comment.settle()
    expect(comment.problem()).toBe('no permission')
    expect(comment.protectsReruns()).toBe(false)
    expect(warnings).toEqual(['no permission', 'no permission'])
  })

  it("keeps the requests found on the job's own comment, and never undoes a later change", async () => {
    const earlier: Submission = { ...REQUEST, run: '41', prompt: 'older' }
    const { comment, writes } = harness((write) =>
      Promise.resolve({
        kind: 'commented',
        commentId: 7,
        url: undefined,
        state: { ...write.state, requests: [earlier, ...write.state.requests] }
      })
    )
    await comment.recordBeforeSending(REQUEST)
    comment.accepted(REQUEST, 'job-9')
    comment.show({ kind: 'active' })
    await comment.settle()
    expect(writes[1]?.write.state.requests).toEqual([earlier, REQUEST])
  })

  it('edits with the outcome within one budget shared with the pending writes, or warns that GitHub took it all', async () => {
    const { comment, warnings, writes } = harness((write) => (stageOf(write) === 'active' ? never() : written(write)))
    comment.show({ kind: 'active' })
    await comment.end(ended('completed'))
    expect(writes.map(({ write }) => stageOf(write))).toEqual(['active'])
    expect(warnings).toEqual(['The tracking comment was not edited with the outcome: GitHub took all of its 400ms.'])
  })

  it("gives a cancelled run's edit only the short budget, and the edit what is left of it", async () => {
    let release: () => void = () => undefined
    const first = new Promise<void>((resolve) => (release = resolve))
    const { comment, writes, advance } = harness(async (write) => {
      if (stageOf(write) === 'active') await first
      return written(write)
    }, true)
    comment.show({ kind: 'active' })
    const ending = comment.end(ended('cancelled'))
    // The pending write takes 20 ms of the budget.
    advance(20)
    release()
    await ending
    expect(writes.map(({ write }) => stageOf(write))).toEqual(['active', 'cancelled'])
    expect(writes[1]?.deadlineMs).toBeLessThanOrEqual(BUDGETS.cancelledDeadlineMs)
    expect(writes[1]?.deadlineMs).toBeGreaterThan(0)
    // The write skips the throttled queue whatever ended, the job or the run: the runner leaves little time.
    expect(writes[1]?.write.cancelled).toBe(true)
  })

  it("gives a cancelled run's edit only what is left before the step must end, once a SIGTERM brought that end near", async () => {
    const { comment, writes } = harness(written, true, { job: 'job-9', requests: [] }, () => 600, 'frozen')
    await comment.end(ended('cancelled'))
    expect(writes.map(({ write }) => stageOf(write))).toEqual(['cancelled'])
    // What is left, less what the step keeps for after the edit: not the cancelled budget of 1.5 s.
    expect(writes[0]?.deadlineMs).toBeLessThanOrEqual(600 - BUDGETS.keptMs)
    expect(writes[0]?.deadlineMs).toBeGreaterThan(BUDGETS.minimumMs)
  })

  it('gives up the edit, and says so, when a SIGTERM leaves less than the minimum before the step must end', async () => {
    const endsBy = BUDGETS.keptMs + 10
    const { comment, writes, warnings } = harness(written, true, { job: 'job-9', requests: [] }, () => endsBy, 'frozen')
    await comment.end(ended('cancelled'))
    expect(writes).toEqual([])
    expect(warnings).toEqual([
      'The tracking comment was not edited with the outcome: the runner left too little time after its SIGTERM.'
    ])
  })

  it('warns when GitHub gives no address for the comment, and sets no comment-url', async () => {
    const { comment, warnings, outputs } = harness((write) =>
      Promise.resolve({ kind: 'commented', commentId: 7, url: undefined, state: write.state })
    )
    comment.show({ kind: 'started' })
    await comment.settle()
    expect(warnings).toEqual(['The tracking comment was written, but GitHub gave no http(s) address for it.'])
    expect(outputs['comment-url']).toBeUndefined()
  })
})
