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
