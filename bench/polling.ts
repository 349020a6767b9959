// Polling efficiency on a simulated clock, with the action's own poller and schedule: requests made and
// detection lag (when the step notices, minus when the job ended), next to fixed-interval pollers.
import { parseJob } from '../src/admin-api/agent-job.ts'
import type { PollResult } from '../src/admin-api/job-answers.ts'
import { waitForJob } from '../src/wait/job-wait.ts'
import { settingsOf } from '../sim/settings.ts'
import { simulatedClock } from '../sim/simulated-clock.ts'

/** The schedule's inputs at action.yml's defaults, with a timeout past every job measured. */
export interface PollerOptions {
  readonly pollIntervalMs: number
  readonly maxPollIntervalMs: number
  readonly timeoutMs: number
  readonly requestTimeoutMs: number
}

export const DEFAULTS: PollerOptions = {
  pollIntervalMs: 5000,
  maxPollIntervalMs: 30_000,
  timeoutMs: 3 * 3_600_000,
  requestTimeoutMs: 30_000
}
export const JOB_DURATIONS_MS = [30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000]

function answer(status: string): PollResult {
  const parsed = parseJob({ status }, { jobId: 'job', githubHosts: new Set(['github.com']) })
  if (parsed.kind === 'not a job') throw new Error(parsed.reason)
  return parsed
}
const ACTIVE = answer('active')
const COMPLETED = answer('completed')

export interface Wait {
  readonly requests: number
  readonly lagMs: number
  /** How long the job ran. */
  readonly lengthMs?: number
}

/** The action's poller on a simulated clock, with real jitter; a job that ends `durationMs` after the first poll. */
export async function simulateAction(
  durationMs: number,
  options: PollerOptions = DEFAULTS,
  random = Math.random
): Promise<Wait> {
  const clock = simulatedClock(random)
  const fetchJob = () => Promise.resolve(clock.now() >= durationMs ? COMPLETED : ACTIVE)
  const settings = settingsOf({
    'base-url': 'http://127.0.0.1',
    'poll-interval': `${options.pollIntervalMs}ms`,
    'max-poll-interval': `${options.maxPollIntervalMs}ms`,
    'request-timeout': `${options.requestTimeoutMs}ms`
  })
  const result = await waitForJob({ settings, fetchJob, clock, startedAt: 0, deadline: options.timeoutMs })
  return { requests: result.polls, lagMs: result.elapsedMs - durationMs, lengthMs: durationMs }
}

/** The peers' way: a poll every `intervalMs`, from the start. */
export function simulateFixed(durationMs: number, intervalMs: number): Wait {
  const polls = Math.ceil(durationMs / intervalMs) + 1
  return { requests: polls, lagMs: (polls - 1) * intervalMs - durationMs, lengthMs: durationMs }
}

/** Job lengths are not round numbers: each run's job lasts within ±5% of the row's length (the same for every poller). */
const LENGTH_SPREAD = 0.1

/** The detection lag the targets allow for a job of this length: max(poll-interval, 20%), at most max-poll-interval. */
export function allowedLagMs(lengthMs: number, options: PollerOptions = DEFAULTS): number {
  return Math.min(options.maxPollIntervalMs, Math.max(options.pollIntervalMs, 0.2 * lengthMs))
}

export interface PollingRow {
  readonly durationMs: number
  readonly ours: Summary
  readonly fixed10s: Summary
  readonly fixed1m: Summary
}

/** Over many runs: mean requests, worst and mean lag. */
export interface Summary {
  readonly meanRequests: number
  readonly worstLagMs: number
  readonly meanLagMs: number
  /** The largest lag as a share of what the targets allow for that run's job. */
  readonly worstLagShare: number
}

function summarise(waits: Wait[]): Summary {
  const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length
  return {
    meanRequests: mean(waits.map((w) => w.requests)),
    worstLagMs: Math.max(...waits.map((w) => w.lagMs)),
    meanLagMs: mean(waits.map((w) => w.lagMs)),
    worstLagShare: Math.max(...waits.map((w) => w.lagMs / allowedLagMs(w.lengthMs ?? 0)))
  }
}

export async function measurePolling(runs = 200): Promise<PollingRow[]> {
  const rows: PollingRow[] = []
  for (const durationMs of JOB_DURATIONS_MS) {
    const ours: Wait[] = []
    const fixed10s: Wait[] = []
    const fixed1m: Wait[] = []
    for (let i = 0; i < runs; i++) {
      const length = durationMs * (1 - LENGTH_SPREAD / 2 + Math.random() * LENGTH_SPREAD)
      ours.push(await simulateAction(length))
      fixed10s.push(simulateFixed(length, 10_000))
      fixed1m.push(simulateFixed(length, 60_000))
    }
    rows.push({ durationMs, ours: summarise(ours), fixed10s: summarise(fixed10s), fixed1m: summarise(fixed1m) })
  }
  return rows
}
