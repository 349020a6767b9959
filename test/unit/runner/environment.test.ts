import { describe, expect, it } from 'vitest'
import {
  AFTER_SIGTERM_MS,
  cancelOnSignals,
  endsAfter,
  readRunnerEnvironment,
  type SignalHost
} from '../../../src/runner/environment.ts'

describe('readRunnerEnvironment', () => {
  it.each([
    [
      { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' },
      { name: 'https_proxy', value: 'http://lower:1' }
    ],
    [
      { https_proxy: '  ', HTTPS_PROXY: 'http://upper:1' },
      { name: 'HTTPS_PROXY', value: 'http://upper:1' }
    ],
    [{ HTTPS_PROXY: ' proxy:3128 ' }, { name: 'HTTPS_PROXY', value: 'proxy:3128' }],
    [{}, undefined]
  ])('takes the lower-case proxy variable first, and a blank one as unset (%#)', (env, https) => {
    expect(readRunnerEnvironment(env).proxies.https).toEqual(https)
  })

  it('reads the run, the repository and the summary file', () => {
    expect(
      readRunnerEnvironment({
        GITHUB_RUN_ID: '42',
        GITHUB_REPOSITORY: 'acme/docs',
        GITHUB_SERVER_URL: 'https://ghes.example',
        GITHUB_STEP_SUMMARY: '/tmp/summary',
        GITHUB_JOB: 'docs',
        GITHUB_ACTION: 'agent',
        NO_PROXY: 'localhost'
      })
    ).toEqual({
      runId: '42',
      eventName: '',
      sha: '',
      step: 'docs/agent',
      repository: 'acme/docs',
      serverUrl: 'https://ghes.example',
      summaryPath: '/tmp/summary',
      workspace: '',
      proxies: { http: undefined, https: undefined, noProxy: 'localhost' }
    })
  })
})

/** The process as the cancel sees it, on a simulated clock: signals sent by the test, timers run as time is moved. */
function simulatedProcess() {
  let now = 0
  let next = 0
  const timers = new Map<number, { readonly at: number; readonly act: () => void }>()
  const listeners: ((signal: NodeJS.Signals) => void)[] = []
  const events: string[] = []
  const host: SignalHost = {
    on: (_signal, listener) => listeners.push(listener),
    now: () => now,
    after: (ms, act) => {
      const id = next++
      timers.set(id, { at: now + Math.max(0, ms), act })
      return () => timers.delete(id)
    },
    exit: () => events.push(`exit at ${now}`)
  }
  /** Moves time to `to`, running each timer due on the way, in order. */
  const moveTo = (to: number): void => {
    for (;;) {
      const due = [...timers.entries()].filter(([, timer]) => timer.at <= to).sort((a, b) => a[1].at - b[1].at)[0]
      if (due === undefined) break
      timers.delete(due[0])
      now = due[1].at
      due[1].act()
    }
    now = to
  }
  const send = (signal: NodeJS.Signals, at: number): void => {
    moveTo(at)
    // Node calls every listener of a signal; the cancel listens to SIGINT and SIGTERM with one.
    const listener = listeners[signal === 'SIGINT' ? 0 : 1]
    listener?.(signal)
  }
  return { host, events, send, moveTo }
}

describe('the cancel', () => {
  it.each([
    ['SIGINT', 4800, 4800],
    ['SIGTERM', 4800, AFTER_SIGTERM_MS],
    ['SIGTERM', 800, 800],
    ['SIGINT', 800, 800]
  ] as const)('ends the step after a first %s with a grace of %i ms within %i ms', (signal, graceMs, within) => {
    expect(endsAfter(signal, 1000, Infinity, graceMs)).toBe(1000 + within)
  })

  it.each([
    ['a SIGTERM soon after a SIGINT brings the end nearer', 'SIGTERM', 1500, 2500],
    ['a SIGTERM late after a SIGINT leaves the end as it was', 'SIGTERM', 5000, 5800],
    ['a second SIGINT never puts the end off', 'SIGINT', 3000, 5800]
  ] as const)('%s', (_, signal, at, endsBy) => {
    const afterSigint = endsAfter('SIGINT', 1000, Infinity, 4800)
    expect(endsAfter(signal, at, afterSigint, 4800)).toBe(endsBy)
  })

  it('after a SIGINT then a SIGTERM, says its last words and exits when the SIGTERM says, before the runner kills it', async () => {
    const { host, events, send, moveTo } = simulatedProcess()
    const lastWords = (): Promise<void> => {
      events.push(`last words at ${host.now()}`)
      return Promise.resolve()
    }
    const cancel = cancelOnSignals(4800, lastWords, host)
    expect(cancel.endsBy()).toBe(Infinity)
    send('SIGINT', 1000)
    expect(cancel.signal.aborted).toBe(true)
    expect(cancel.endsBy()).toBe(5800)
    send('SIGTERM', 2000)
    const end = 2000 + AFTER_SIGTERM_MS
    expect(cancel.endsBy()).toBe(end)
    moveTo(end)
    await new Promise(setImmediate)
    moveTo(10_000)
    expect(events).toEqual([`last words at ${end}`, `exit at ${end}`])
  })

  it('resolves the last call the reserve before the step must end, once a signal set that end', async () => {
    const { host, send, moveTo } = simulatedProcess()
    const cancel = cancelOnSignals(800, () => Promise.resolve(), host)
    let called = -1
    const waiting = cancel.lastCall(300).then(() => (called = host.now()))
    send('SIGTERM', 500)
    moveTo(500 + 800 - 300)
    await waiting
    expect(called).toBe(1000)
  })
})
