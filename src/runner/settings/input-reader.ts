import type * as core from '@actions/core'

/** The runner's side of reading inputs: `@actions/core`, or a stand-in that records secrets and warnings. */
export type InputSource = Pick<
  typeof core,
  'getInput' | 'getBooleanInput' | 'getMultilineInput' | 'setSecret' | 'warning' | 'notice'
>

/** One or more inputs are invalid; the message names each of them, one a line. */
export class InputError extends Error {
  override name = 'InputError'
}

/** Reads inputs and collects every problem, so that all of them are reported at once. */
export class InputReader {
  readonly source: InputSource
  readonly problems: string[] = []

  constructor(source: InputSource) {
    this.source = source
  }

  /** The input, trimmed; '' when unset. */
  text(name: string): string {
    return this.source.getInput(name).trim()
  }

  required(name: string, what: string): string {
    const value = this.text(name)
    if (value === '') this.problem(`Input "${name}" is required: ${what}.`)
    return value
  }

  boolean(name: string): boolean {
    try {
      return this.source.getBooleanInput(name)
    } catch {
      this.problem(`Input "${name}" must be true or false; got "${this.text(name)}".`)
      return false
    }
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
