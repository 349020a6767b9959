// The tracking comment's lifecycle, with small budgets passed in and a GitHub side that answers when told to.
import { describe, expect, it } from 'vitest'
import type { CommentView } from '../../../src/github/comment-body.ts'
import type { CommentResult } from '../../../src/github/tracking-comments.ts'
import { outputWriter } from '../../../src/runner/outputs.ts'
import { trackingComment } from '../../../src/step/tracking-comment.ts'
import type { WaitResult } from '../../../src/step/wait-for-job.ts'

const BUDGETS = { deadlineMs: 400, cancelledDeadlineMs: 150, minimumMs: 50 }

function harness(write: (view: CommentView, deadlineMs: number) => Promise<CommentResult>) {
  const outputs: Record<string, string> = {}
  const warnings: string[] = []
  const infos: string[] = []
  const writes: { view: CommentView['kind']; deadlineMs: number }[] = []
  const comment = trackingComment(
    {
      write: (_update, view, deadlineMs) => {
        writes.push({ view: view.kind, deadlineMs })
        return write(view, deadlineMs)
      }
    },
    { job: 'job-1', add: [] },
    {
      outputs: outputWriter((name, value) => (outputs[name] = value)),
      log: { info: (m) => infos.push(m), warning: (m) => warnings.push(m) }
    },
    BUDGETS
  )
  return { comment, outputs, warnings, infos, writes }
}

const ended = (kind: 'completed' | 'cancelled'): CommentView & { kind: 'ended' } => ({
  kind: 'ended',
  result: { kind, polls: 1, elapsedMs: 10, job: undefined, faults: 0 } as WaitResult,
  message: 'done',
  timeoutMs: 1000
})
const never = () => new Promise<CommentResult>(() => undefined)
const commented = (url: string) => Promise.resolve<CommentResult>({ kind: 'commented', url })

describe('trackingComment', () => {
  it('sets comment-url once, when the comment is first made, and logs its address', async () => {
    const { comment, outputs, infos, writes } = harness(() => commented('https://github.com/acme/docs/issues/1#c'))
    comment.show({ kind: 'active' })
    await comment.end(ended('completed'))
    expect(outputs['comment-url']).toBe('https://github.com/acme/docs/issues/1#c')
    expect(infos).toEqual(['Tracking comment: https://github.com/acme/docs/issues/1#c'])
    expect(writes.map((write) => write.view)).toEqual(['active', 'ended'])
    expect(writes[0]?.deadlineMs).toBe(BUDGETS.deadlineMs)
  })

  it('edits with the outcome within one budget shared with the first write, or warns that GitHub took it all', async () => {
    const { comment, warnings, writes } = harness((view) => (view.kind === 'active' ? never() : commented('x')))
    comment.show({ kind: 'active' })
    const started = performance.now()
    await comment.end(ended('completed'))
    expect(performance.now() - started).toBeLessThan(2000)
    expect(writes.map((write) => write.view)).toEqual(['active'])
    expect(warnings).toEqual(['The tracking comment was not edited with the outcome: GitHub took all of its 400ms.'])
  })

  it("gives a cancelled run's edit only the short budget, and the edit what is left of it", async () => {
    let release: (result: CommentResult) => void = () => undefined
    const first = new Promise<CommentResult>((resolve) => (release = resolve))
    const { comment, writes } = harness((view) => (view.kind === 'active' ? first : commented('x')))
    comment.show({ kind: 'active' })
    setTimeout(() => release({ kind: 'commented', url: 'x' }), 20)
    await comment.end(ended('cancelled'))
    expect(writes.map((write) => write.view)).toEqual(['active', 'ended'])
    expect(writes[1]?.deadlineMs).toBeLessThanOrEqual(BUDGETS.cancelledDeadlineMs)
    expect(writes[1]?.deadlineMs).toBeGreaterThan(0)
  })

  it('passes on a warning instead of an address', async () => {
    const { comment, warnings, outputs } = harness(() => Promise.resolve({ kind: 'warning', warning: 'no permission' }))
    comment.show({ kind: 'started' })
    await comment.settle()
    expect(warnings).toEqual(['no permission'])
    expect(outputs['comment-url']).toBeUndefined()
  })
})
