/** Most runners send SIGINT on cancel, then SIGTERM; the step must stop polling at once. */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * An AbortSignal raised by SIGINT or SIGTERM; after it, whatever is left to do (the outputs, the summary, the
 * comment) must finish within `graceMs`, or the process exits non-zero anyway. The handlers stay in place, so a
 * second signal (the runner sends SIGINT, then SIGTERM) cannot kill the step before its outputs and summary are
 * written.
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

/**
 * Ends a cancelled step once its outputs and summary are written, with exit code 1. Left to end by itself, Node
 * restores the default signal actions while it tears down, and the runner's next signal (it sends SIGINT, then
 * SIGTERM) would then kill a step that had finished. The log is flushed first.
 */
export function exitCancelledStep(): void {
  process.stdout.write('', () => process.exit(1))
}
