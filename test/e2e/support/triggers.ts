// Tests act on what happened (a request arrived, a line was logged), never on a guess of how long the action takes
// to start: on a loaded machine a guess is a flake.
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'

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
export const SIGNAL_SEEN = ['--import', join(import.meta.dirname, '..', '..', 'fixtures', 'signal-seen.mjs')]

/**
 * The step's clock, moved by the test when something has happened (test/fixtures/fast-clock.mjs): `run` goes into a
 * run's options, and `jump()` moves the step's time `jumpMs` ahead at once, its waits with it. A timeout then runs
 * out right after what the test waited for, however fast the machine is.
 */
export function steppedClock(jumpMs: number) {
  let step: ChildProcess | undefined
  return {
    run: {
      nodeArgs: ['--import', join(import.meta.dirname, '..', '..', 'fixtures', 'fast-clock.mjs')],
      env: { FAST_CLOCK_JUMP_MS: String(jumpMs) },
      onSpawn: (child: ChildProcess) => {
        step = child
      }
    },
    jump: (): void => {
      step?.kill('SIGUSR2')
    }
  }
}
