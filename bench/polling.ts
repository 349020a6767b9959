// Polling efficiency on a simulated clock, with the action's own poller and schedule: requests made and
// detection lag (when the step notices, minus when the job ended), next to fixed-interval pollers.
import type { PollResult } from '../src/job-client.ts'
import { parseJob } from '../src/job.ts'
import { type PollerOptions, waitForJob } from '../src/poller.ts'
import { simulatedClock } from '../sim/simulated-clock.ts'

export const DEFAULTS: PollerOptions = { pollIntervalMs: 5000, maxPollIntervalMs: 30_000, timeoutMs: 3 * 3_600_000, requestTimeoutMs: 30_000 }
export const JOB_DURATIONS_MS = [30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000]

function answer(status: string): PollResult {
  const parsed = parseJob({ status })
  if (!parsed.ok) throw new Error(parsed.reason)
  return { kind: 'job', job: parsed.job }
}
const ACTIVE = answer('active')
const COMPLETED = answer('completed')

export interface Wait {
  readonly requests: number
  readonly lagMs: number
}

/** The action's poller on a simulated clock, with real jitter; a job that ends `durationMs` after the first poll. */
export async function simulateAction(durationMs: number, options: PollerOptions = DEFAULTS, random = Math.random): Promise<Wait> {
  const clock = simulatedClock(random)
  const result = await waitForJob(() => Promise.resolve(clock.now() >= durationMs ? COMPLETED : ACTIVE), options, clock)
  return { requests: result.polls, lagMs: result.elapsedMs - durationMs }
}

/** The peers' way: a poll every `intervalMs`, from the start. */
export function simulateFixed(durationMs: number, intervalMs: number): Wait {
  const polls = Math.ceil(durationMs / intervalMs) + 1
  return { requests: polls, lagMs: (polls - 1) * intervalMs - durationMs }
}

export interface PollingRow {
  readonly durationMs: number
  /** Over many runs with different jitter: mean requests, worst lag. */
  readonly ours: { readonly meanRequests: number; readonly worstLagMs: number; readonly meanLagMs: number }
  readonly fixed10s: Wait
  readonly fixed1m: Wait
}

export async function measurePolling(runs = 200): Promise<PollingRow[]> {
  const rows: PollingRow[] = []
  for (const durationMs of JOB_DURATIONS_MS) {
    const waits: Wait[] = []
    for (let i = 0; i < runs; i++) waits.push(await simulateAction(durationMs))
    const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length
    rows.push({
      durationMs,
      ours: {
        meanRequests: mean(waits.map((w) => w.requests)),
        worstLagMs: Math.max(...waits.map((w) => w.lagMs)),
        meanLagMs: mean(waits.map((w) => w.lagMs))
      },
      fixed10s: simulateFixed(durationMs, 10_000),
      fixed1m: simulateFixed(durationMs, 60_000)
    })
  }
  return rows
}
