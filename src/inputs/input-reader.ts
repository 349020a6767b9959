// Reading inputs through @actions/core, one problem after another: every problem is collected, so that all of them
// are reported at once, each naming its input.
import type * as core from '@actions/core'
import { formatDuration, parseDuration } from '../text/duration.ts'

/** The runner's side of reading inputs: `@actions/core`, or a stand-in that records secrets and warnings. */
export type InputSource = Pick<
  typeof core,
  'getInput' | 'getBooleanInput' | 'getMultilineInput' | 'setSecret' | 'warning' | 'notice'
>

/** One or more inputs are invalid; the message names each of them, one a line. */
export class InputError extends Error {
  override name = 'InputError'
}

/** Node cannot wait longer than this in one timer; a longer one fires at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1

/**
 * action.yml's defaults. The runner applies one only to an input the workflow leaves out; an input given empty (what
 * a workflow passes when it forwards an unset `inputs.x` or `vars.X`) is read as its default too, here, as the
 * toolkit's own actions do. Not here: `fail-on`, whose empty value is documented to mean that only errors fail the
 * step, `skip-labels` and `skip-authors`, whose empty value is none, and `github-token`, whose default is an expression only the runner can evaluate (empty, it is asked for).
 * A test holds this table to action.yml.
 */
export const INPUT_DEFAULTS: Readonly<Record<string, string>> = {
  mode: 'single',
  'merge-approved': 'false',
  'sweep-actions': '',
  'sweep-limit': '10',
  'stale-after': '14d',
  'sweep-window': '30d',
  context: 'none',
  'context-limit': '20000',
  'base-url': 'https://api.mintlify.com',
  timeout: '30m',
  'poll-interval': '5s',
  'max-poll-interval': '30s',
  'request-timeout': '30s',
  wait: 'true',
  'follow-up': 'false',
  preview: 'false',
  'min-changed-lines': '0',
  'no-change-note': 'true',
  'pair-drafts': 'false',
  'check-name': 'Mintlify docs',
  'batch-limit': '20',
  'batch-since': '7d',
  'digest-label': 'docs digest',
  'batch-notify': 'false',
  command: '',
  'command-permission': 'write',
  label: '',
  'label-remove': 'true',
  comment: 'false',
  grounding: 'report',
  'grounding-rounds': '1'
}

/** Reads inputs and collects every problem, so that all of them are reported at once. */
export class InputReader {
  readonly source: InputSource
  readonly problems: string[] = []

  constructor(source: InputSource) {
    this.source = source
  }

  /** The input, trimmed; its default (INPUT_DEFAULTS) when unset or empty, else ''. */
  text(name: string): string {
    const value = this.source.getInput(name).trim()
    return value === '' ? (INPUT_DEFAULTS[name] ?? '') : value
  }

  required(name: string, what: string): string {
    const value = this.text(name)
    if (value === '') this.problem(`Input "${name}" is required: ${what}.`)
    return value
  }

  /** `true` or `false` as YAML 1.2 writes them (`True`, `FALSE` too), as the toolkit reads them. */
  boolean(name: string): boolean {
    const text = this.text(name)
    if (/^(?:true|True|TRUE)$/.test(text)) return true
    if (!/^(?:false|False|FALSE)$/.test(text)) this.problem(`Input "${name}" must be true or false; got "${text}".`)
    return false
  }

  /** A positive duration (`500ms`, `10s`, `5m`, `1h`, `1m 30s`, or seconds) in milliseconds; NaN when invalid. */
  duration(name: string): number {
    const text = this.text(name)
    const ms = parseDuration(text)
    if (ms === undefined || ms <= 0) {
      // No example under a second: most durations must be at least 1s against a remote API.
      this.problem(
        `Input "${name}" must be a positive duration such as 10s, 5m, 1h, 1m 30s or a number of seconds; got "${text}".`
      )
      return Number.NaN
    }
    if (ms > LONGEST_TIMER_MS) {
      this.problem(`Input "${name}" (${formatDuration(ms)}) is longer than a timer can hold (about 24.8 days).`)
      return Number.NaN
    }
    return ms
  }

  problem(message: string): void {
    this.problems.push(message)
  }

  warning(message: string): void {
    this.source.warning(message)
  }

  notice(message: string): void {
    this.source.notice(message)
  }

  /** Throws an InputError naming every problem found, if any. */
  finish(): void {
    if (this.problems.length > 0) throw new InputError(this.problems.join('\n'))
  }
}
