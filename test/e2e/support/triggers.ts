// Tests act on what happened (a request arrived, a line was logged), never on a guess of how long the action takes
// to start: on a loaded machine a guess is a flake.
import type { ChildProcess } from 'node:child_process'
import type { IncomingMessage } from 'node:http'
import { join } from 'node:path'
import type { Respond } from '../../../sim/admin-api.ts'
import { parseDuration } from '../../../src/text/duration.ts'
import type { BundleRun } from './run-bundle.ts'

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures')

/** Calls `act` once `ready()` holds, checking every 10 ms. */
export function once(ready: () => boolean, act: () => void): void {
  const timer = setInterval(() => {
    if (!ready()) return
    clearInterval(timer)
    act()
  }, 10)
}

/** Resolves once the child has written `text` to its standard output (or its standard error). */
export function whenLogged(child: ChildProcess, text: string, stream: 'stdout' | 'stderr' = 'stdout'): Promise<void> {
  return new Promise((resolve) => {
    let seen = ''
    const listener = (chunk: Buffer | string): void => {
      seen += String(chunk)
      if (!seen.includes(text)) return
      child[stream]?.off('data', listener)
      resolve()
    }
    child[stream]?.on('data', listener)
  })
}

/** Preloaded with `nodeArgs`, makes the step say `received SIGINT` on its standard error the moment it gets one. */
export const SIGNAL_SEEN = ['--import', join(FIXTURES, 'signal-seen.mjs')]

/**
 * The step's clock, moved by the test when something has happened (test/fixtures/fast-clock.mjs). `inputs` gives the
 * step its `timeout`, `with()` the options that run it on this clock, and `jump()` moves its time past that timeout at
 * once, its waits with it: the timeout runs out right after what the test waited for, however fast the machine is,
 * and a request in flight keeps the time it was given.
 */
export function steppedClock(timeout = '10m') {
  let step: ChildProcess | undefined
  const jump = (): void => {
    step?.kill('SIGUSR2')
  }
  return {
    inputs: { timeout },
    jump,
    /** Answers as `respond` does, after moving the clock past the timeout when `when` picks the request. */
    jumpingAt:
      (respond: Respond, when: (req: IncomingMessage, index: number) => boolean = () => true): Respond =>
      (req, res, index) => {
        if (when(req, index)) jump()
        return respond(req, res, index)
      },
    /** These run options, on this clock. */
    with: (options: BundleRun = {}): BundleRun => ({
      ...options,
      nodeArgs: [...(options.nodeArgs ?? []), '--import', join(FIXTURES, 'fast-clock.mjs')],
      env: { ...options.env, FAST_CLOCK_JUMP_MS: String(parseDuration(timeout)) },
      onSpawn: (child) => {
        step = child
        options.onSpawn?.(child)
      }
    })
  }
}

export type SteppedClock = ReturnType<typeof steppedClock>

/**
 * These run options, with the step's clock running ten times slower than real time (test/fixtures/fast-clock.mjs):
 * for a test of what the step does at a cap (pages read), never at its one-minute deadline for GitHub, which a busy
 * machine's hundred requests could otherwise reach.
 */
export function onSlowClock(options: BundleRun = {}): BundleRun {
  return {
    ...options,
    nodeArgs: [...(options.nodeArgs ?? []), '--import', join(FIXTURES, 'fast-clock.mjs')],
    env: { ...options.env, FAST_CLOCK: '0.1' }
  }
}
