// What the runner tells the action: its environment variables, read in this one place (the toolkit reads its own:
// @actions/core the input and file-command variables, @actions/github the event), and the signals of a cancel.

/** A proxy variable that is set, and its name for messages. */
export interface ProxyVariable {
  readonly name: string
  readonly value: string
}

export interface ProxySettings {
  readonly http: ProxyVariable | undefined
  readonly https: ProxyVariable | undefined
  /** NO_PROXY, as given. */
  readonly noProxy: string
}

export interface RunnerEnvironment {
  /** GITHUB_SERVER_URL: github.com, or a GitHub Enterprise Server. */
  readonly serverUrl: string | undefined
  /** GITHUB_REPOSITORY, `owner/name`; empty when unset. */
  readonly repository: string
  /** GITHUB_RUN_ID; empty when unset. */
  readonly runId: string
  /** GITHUB_EVENT_NAME, the event that started the run; empty when unset. */
  readonly eventName: string
  /** GITHUB_SHA, the commit the run is for; empty when unset. */
  readonly sha: string
  /**
   * This step within its run, `GITHUB_JOB/GITHUB_ACTION` (the job's id and the step's, which GitHub numbers when an
   * action is used twice in a job); empty when unset.
   */
  readonly step: string
  /** GITHUB_STEP_SUMMARY: the job summary's file; a runner always sets it. */
  readonly summaryPath: string | undefined
  /** GITHUB_WORKSPACE, where a checkout of the code may be; empty when unset. */
  readonly workspace: string
  readonly proxies: ProxySettings
}

/** Each proxy variable as undici and curl read it: the lower-case spelling first. */
const PROXY_VARIABLES = {
  http: ['http_proxy', 'HTTP_PROXY'],
  https: ['https_proxy', 'HTTPS_PROXY'],
  noProxy: ['no_proxy', 'NO_PROXY']
} as const

/** The first of these variables that is set and not blank: a blank one is no setting, and hides no other. */
function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): ProxyVariable | undefined {
  const name = names.find((candidate) => env[candidate]?.trim())
  return name === undefined ? undefined : { name, value: (env[name] ?? '').trim() }
}

export function readRunnerEnvironment(env: NodeJS.ProcessEnv = process.env): RunnerEnvironment {
  return {
    serverUrl: env['GITHUB_SERVER_URL'],
    repository: env['GITHUB_REPOSITORY'] ?? '',
    runId: env['GITHUB_RUN_ID'] ?? '',
    eventName: env['GITHUB_EVENT_NAME'] ?? '',
    sha: env['GITHUB_SHA'] ?? '',
    step: env['GITHUB_JOB'] || env['GITHUB_ACTION'] ? `${env['GITHUB_JOB'] ?? ''}/${env['GITHUB_ACTION'] ?? ''}` : '',
    summaryPath: env['GITHUB_STEP_SUMMARY'] || undefined,
    workspace: env['GITHUB_WORKSPACE'] ?? '',
    proxies: {
      http: firstSet(env, PROXY_VARIABLES.http),
      https: firstSet(env, PROXY_VARIABLES.https),
      noProxy: firstSet(env, PROXY_VARIABLES.noProxy)?.value ?? ''
    }
  }
}

/** Most runners send SIGINT on cancel, then SIGTERM; the step must stop polling at once. */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const

/**
 * SIGTERM is the runner's last warning: its order is SIGINT, 7.5 s, SIGTERM, 2.5 s, SIGKILL. Whatever came first, the
 * step ends within this after a SIGTERM: a second, so that a busy machine, whose timers fire late, still ends it
 * before the SIGKILL.
 */
export const AFTER_SIGTERM_MS = 1000

/** The cancel: its signal, and when the step must have ended, which each signal may bring nearer. */
export interface Cancel {
  /** Raised by SIGINT or SIGTERM. */
  readonly signal: AbortSignal
  /** When the step must have ended (on `performance.now()`'s scale); Infinity until a signal came. */
  readonly endsBy: () => number
  /** Resolves once no more than `reserveMs` is left before the step must have ended; never before a signal. */
  readonly lastCall: (reserveMs: number) => Promise<void>
}

/** When the step must have ended after `signal` came `at`, given when it had to before (Infinity: no signal yet). */
export function endsAfter(signal: NodeJS.Signals, at: number, before: number, graceMs: number): number {
  return Math.min(before, at + (signal === 'SIGTERM' ? Math.min(graceMs, AFTER_SIGTERM_MS) : graceMs))
}

/** What the cancel needs of the process: its signals, its clock and timers, its exit. */
export interface SignalHost {
  readonly on: (signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void) => void
  readonly now: () => number
  readonly after: (ms: number, act: () => void) => () => void
  readonly exit: () => void
}

const PROCESS: SignalHost = {
  on: (signal, listener) => {
    process.on(signal, listener)
  },
  now: () => performance.now(),
  after: (ms, act) => {
    const timer = setTimeout(act, ms).unref()
    return () => {
      clearTimeout(timer)
    }
  },
  exit: () => process.exit(1)
}

/**
 * The cancel raised by SIGINT or SIGTERM; after the first, whatever is left to do (the outputs, the summary, the
 * comment) must finish within `graceMs`, and within AFTER_SIGTERM_MS of a SIGTERM, or the process exits non-zero
 * anyway, after `lastWords` (what the step could not say yet). The handlers stay in place, so a second signal (the
 * runner sends SIGINT, then SIGTERM) cannot kill the step before its outputs and summary are written.
 */
export function cancelOnSignals(graceMs: number, lastWords: () => Promise<void>, host: SignalHost = PROCESS): Cancel {
  const controller = new AbortController()
  let endsBy = Infinity
  const timers: (() => void)[] = []
  const waiting: { readonly reserveMs: number; readonly resolve: () => void }[] = []
  /** Every timer, armed again for when the step must end now. */
  const arm = (): void => {
    for (const clear of timers.splice(0)) clear()
    const left = endsBy - host.now()
    timers.push(
      host.after(left, () => {
        void lastWords().finally(host.exit)
      })
    )
    for (const wait of waiting) timers.push(host.after(left - wait.reserveMs, wait.resolve))
  }
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) controller.abort(new Error(`received ${signal}`))
    const by = endsAfter(signal, host.now(), endsBy, graceMs)
    if (by >= endsBy) return
    endsBy = by
    arm()
  }
  for (const signal of SIGNALS) host.on(signal, onSignal)
  return {
    signal: controller.signal,
    endsBy: () => endsBy,
    lastCall: (reserveMs) =>
      new Promise((resolve) => {
        waiting.push({ reserveMs, resolve })
        if (endsBy !== Infinity) arm()
      })
  }
}

/**
 * Ends a cancelled step once its outputs and summary are written, with exit code 1. Left to end by itself, Node
 * restores the default signal actions while it tears down, and the runner's next signal (it sends SIGINT, then
 * SIGTERM) would then kill a step that had finished. The log is flushed first.
 */
export function exitCancelledStep(): void {
  process.stdout.write('', () => process.exit(1))
}
