import { setTimeout as delay } from 'node:timers/promises'

/** Most runners send SIGINT on cancel, then SIGTERM; the step must stop polling at once. */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * An AbortSignal raised by SIGINT or SIGTERM; after it, whatever is left to do (the outputs, the summary, the
 * comment) must finish within `graceMs`, or the process exits non-zero anyway. The
 * handlers stay in place, so a second signal (the runner sends SIGINT, then SIGTERM) cannot kill the step before
 * its outputs and summary are written.
 */
export function cancelOnSignals(graceMs: number): AbortSignal {
  const controller = new AbortController()
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) return
    controller.abort(new Error(`received ${signal}`))
    setTimeout(() => process.exit(1), graceMs).unref()
  }
  for (const signal of SIGNALS) process.on(signal, onSignal)
  return controller.signal
}

/** Sleeps `ms`, or less when the signal aborts first. Never rejects. */
export async function sleepUnlessCancelled(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal })
  } catch {
    // aborted: the caller sees the signal
  }
}
