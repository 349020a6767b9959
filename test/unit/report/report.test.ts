// The wait's log: what a user reads while the step waits, on the simulated clock.
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import { simulatedClock } from '../../../sim/simulated-clock.ts'
import { parseJob } from '../../../src/admin-api/agent-job.ts'
import type { PollResult } from '../../../src/admin-api/job-answers.ts'
import { logProgress } from '../../../src/report/report.ts'
import { waitForJob } from '../../../src/wait/job-wait.ts'

const refused: PollResult = {
  kind: 'transient',
  reason: 'connection refused (ECONNREFUSED)',
  fault: 'network',
  unreached: 'connection refused (ECONNREFUSED)'
}

/** Waits on the simulated clock for a job whose polls are answered by `answer`; the lines logged, and the result. */
async function waitLogged(answer: (index: number) => PollResult, inputs: Record<string, string>) {
  const clock = simulatedClock(() => 0)
  const settings = settingsOf({ 'base-url': 'http://127.0.0.1', ...inputs })
  const lines: string[] = []
  const logged = logProgress(
    { info: (line) => lines.push(line), warning: (line) => lines.push(line), debug: () => undefined },
    clock.now
  )
  let polls = 0
  const result = await waitForJob({
    settings,
    clock,
    startedAt: 0,
    deadline: settings.timeoutMs,
    fetchJob: () => Promise.resolve(answer(polls++)),
    onEvent: logged.tell
  })
  logged.end()
  return { lines, result, polls }
}

describe('logProgress', () => {
  it('tells an unreachable base-url polled every second for its minute in two lines, not one a poll', async () => {
    const { lines, result, polls } = await waitLogged(() => refused, {
      'poll-interval': '1s',
      'max-poll-interval': '1s'
    })
    expect(result.kind).toBe('error')
    // The 61st poll ends the wait: the error that names base-url tells it.
    expect(polls).toBe(61)
    expect(lines).toEqual([
      'Poll failed: connection refused (ECONNREFUSED); retrying in 1s (1 in a row)',
      'Failed the same way 59 more times in 1m: connection refused (ECONNREFUSED)'
    ])
  })

  it('tells a fault again once the API has answered between, with the status it answered', async () => {
    const parsed = parseJob({ id: 'j', status: 'active' }, { jobId: 'j', githubHosts: new Set() })
    if (parsed.kind === 'not a job') throw new Error(parsed.reason)
    const active: PollResult = { kind: 'job', job: parsed.job }
    const done = parseJob({ id: 'j', status: 'completed' }, { jobId: 'j', githubHosts: new Set() })
    if (done.kind === 'not a job') throw new Error(done.reason)
    const script = [refused, refused, active, refused, { kind: 'job', job: done.job } as const]
    const { lines } = await waitLogged((index) => script[index] ?? refused, { 'poll-interval': '1s' })
    expect(lines).toEqual([
      'Poll failed: connection refused (ECONNREFUSED); retrying in 1s (1 in a row)',
      'Failed the same way 1 more time in 3s: connection refused (ECONNREFUSED)',
      'Job status: active',
      'Poll failed: connection refused (ECONNREFUSED); retrying in 1s (1 in a row)',
      'Job status: completed (was active, after 5s)'
    ])
  })
})
