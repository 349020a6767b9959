// Real time, scaled: the bundled action against a loopback job that ends after a set time, with every interval
// scaled down 100 times, next to the simulated figures for the same scaled inputs.
import { playJob, startServer } from '../sim/admin-api.ts'
import { runAction } from '../sim/run-action.ts'
import { simulateAction } from './polling.ts'

export const SCALE = 100
const SCALED_INPUTS = {
  'poll-interval': `${5000 / SCALE}ms`,
  'max-poll-interval': `${30_000 / SCALE}ms`,
  timeout: `${1_800_000 / SCALE}ms`
}
const SCALED_OPTIONS = {
  pollIntervalMs: 5000 / SCALE,
  maxPollIntervalMs: 30_000 / SCALE,
  timeoutMs: 1_800_000 / SCALE,
  requestTimeoutMs: 30_000
}

export interface ScaledRow {
  /** The unscaled job duration this stands for. */
  readonly durationMs: number
  readonly real: { readonly requests: number; readonly lagMs: number }
  readonly simulated: { readonly meanRequests: number; readonly worstLagMs: number }
}

export async function measureScaled(durationsMs = [60_000, 300_000, 600_000]): Promise<ScaledRow[]> {
  const rows: ScaledRow[] = []
  for (const durationMs of durationsMs) {
    const activeForMs = durationMs / SCALE
    const story = {
      projectId: 'scaled',
      jobId: 'job',
      apiKey: 'mint_scaled',
      activeForMs,
      final: { status: 'completed' }
    }
    const server = await startServer(playJob(story))
    try {
      const run = await runAction({
        inputs: {
          'project-id': 'scaled',
          'job-id': 'job',
          'api-key': story.apiKey,
          'base-url': server.url,
          ...SCALED_INPUTS
        }
      })
      if (run.exitCode !== 0) throw new Error(`the scaled run failed:\n${run.stdout}`)
      const first = server.requests[0]?.at ?? 0
      const last = server.requests.at(-1)?.at ?? 0
      const simulated = await Promise.all(
        Array.from({ length: 100 }, () => simulateAction(activeForMs, SCALED_OPTIONS))
      )
      rows.push({
        durationMs,
        real: { requests: server.requests.length, lagMs: last - (first + activeForMs) },
        simulated: {
          meanRequests: simulated.reduce((sum, wait) => sum + wait.requests, 0) / simulated.length,
          worstLagMs: Math.max(...simulated.map((wait) => wait.lagMs))
        }
      })
    } finally {
      await server.close()
    }
  }
  return rows
}
