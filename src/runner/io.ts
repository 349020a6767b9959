// The step's whole exchange with the Actions runner, through @actions/core: the log and its annotations, the outputs,
// the job summary, and the step's failure.
import * as core from '@actions/core'
import { headingOf } from '../text/outcome.ts'
import type { Redact } from '../text/redact.ts'
import { errorMessage, forLog, forMarkdown, inertToRunner, withoutLineBreaks } from '../text/untrusted.ts'

export interface Logger {
  info(message: string): void
  warning(message: string): void
  debug(message: string): void
}

/** The step's outputs, as action.yml declares them. */
export const OUTPUT_NAMES = [
  'status',
  'outcome',
  'job-id',
  'prLink',
  'pr-number',
  'pr-repository',
  'job',
  'branch',
  'docs-repository',
  'preview-url',
  'preview-status',
  'comment-url',
  'skip-reason',
  'action-taken',
  'requested-by',
  'guardrail',
  'grounding',
  'ungrounded',
  'check-url',
  'batch-size',
  'batch-prs',
  'batch-from',
  'batch-to',
  'sweep',
  'result'
] as const
export type OutputName = (typeof OUTPUT_NAMES)[number]

/** The keys of the `result` output's JSON object: each always there, `null` when unknown. */
export const RESULT_KEYS = [
  'outcome',
  'status',
  'job-id',
  'prLink',
  'pr-number',
  'pr-repository',
  'branch',
  'preview-url',
  'preview-status',
  'skip-reason',
  'action-taken',
  'requested-by',
  'batch-size',
  'batch-prs',
  'guardrail',
  'grounding',
  'ungrounded',
  'duration-s',
  'jobs-started',
  'sweep'
] as const
export type ResultKey = (typeof RESULT_KEYS)[number]

/** `result` when the step did not start: an error, no job, no time; every other key `null`. */
export function refusedResult(): string {
  const unknown = Object.fromEntries(RESULT_KEYS.map((key) => [key, null]))
  return JSON.stringify({ ...unknown, outcome: 'error', 'duration-s': 0, 'jobs-started': 0 })
}
export type Outputs = Partial<Record<OutputName, string>>

export interface OutputWriter {
  /** Sets an output at once: `job-id` is there for a later step even if this one is cancelled. */
  set(name: OutputName, value: string): void
  setAll(values: Outputs): void
  /** Sets every output not set yet to its value in `left` or '', so a later step can always read each of them. */
  finish(left?: Outputs): void
}

export interface RunnerIo {
  readonly log: Logger
  readonly outputs: OutputWriter
  /** Writes the job summary; never throws. */
  writeSummary(html: string): Promise<void>
  /** Marks the step failed, with an error annotation. */
  fail(message: string): void
  /** The step did not start: outcome `error`, `result` saying so, every other output empty, a summary of what to fix. */
  cannotStart(problems: string, what?: string): Promise<void>
  /** Something the action did not expect went wrong: outcome `error`, and the error's message, redacted. */
  failUnexpected(error: unknown, redact: Redact): void
  /**
   * The step is cut short after a cancel, before it could report: `outcome: cancelled` and every other output not set
   * yet, and a summary that says so unless one was written.
   */
  cutShort(): Promise<void>
}

/**
 * Every output is one line, whatever the API or GitHub sent: a later step that reads it into a shell variable or a
 * `$GITHUB_ENV` line gets no second line. `job` and `result` are JSON, which escapes its control characters itself; the Unicode
 * line breaks JSON leaves as they are are escaped too.
 */
function oneLine(name: OutputName, value: string): string {
  if (name !== 'job' && name !== 'result') return withoutLineBreaks(value)
  return value.replace(/[\u0085\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * `cannotWrite` is told, once, when the runner's output file cannot be written (the step then writes no more
 * outputs, rather than throwing from wherever it sets one).
 */
export function outputWriter(
  setOutput: (name: string, value: string) => void,
  cannotWrite: (error: unknown) => void = (error) => {
    throw error
  }
): OutputWriter {
  const written = new Set<OutputName>()
  let broken = false
  const write = (name: OutputName, value: string): void => {
    if (broken) return
    try {
      setOutput(name, value)
    } catch (error) {
      broken = true
      cannotWrite(error)
    }
  }
  const set = (name: OutputName, value: string): void => {
    written.add(name)
    write(name, oneLine(name, value))
  }
  return {
    set,
    setAll: (values) => {
      for (const name of OUTPUT_NAMES) {
        const value = values[name]
        if (value !== undefined) set(name, value)
      }
    },
    finish: (left = {}) => {
      for (const name of OUTPUT_NAMES) if (!written.has(name)) write(name, oneLine(name, left[name] ?? ''))
    }
  }
}

/** The job summary when the inputs were invalid: what to fix, one problem per line. */
export function inputErrorSummary(problems: string, what?: string): string {
  const lines = problems.split('\n').map((line) => forMarkdown(line, 1000))
  const why = what ?? (lines.length === 1 ? 'an input is invalid' : 'inputs are invalid')
  return `<h3>${headingOf('error')}</h3>\n<p>The step did not start: ${why}.</p>\n<ul>${lines.map((line) => `<li>${line}</li>`).join('')}</ul>\n`
}

const CUT_SHORT = `<h3>${headingOf('cancelled')}</h3>\n<p>The runner's time after the cancel ran out before the step could tell more: the Mintlify agent job, if one was started, may still be running. The Mintlify dashboard shows it.</p>\n`

/** `summaryPath`: GITHUB_STEP_SUMMARY, which a runner always sets. */
export function coreRunnerIo(summaryPath: string | undefined): RunnerIo {
  const fail = (message: string): void => {
    core.setFailed(inertToRunner(message))
  }
  const outputs = outputWriter(core.setOutput, (error) => {
    fail(
      `The step's outputs could not be written (${errorMessage(error)}): GITHUB_OUTPUT must name a file the runner made for this step. Later steps will find no outputs.`
    )
  })
  let summarized = false
  const writeSummary = async (html: string): Promise<void> => {
    summarized = true
    if (summaryPath === undefined) {
      core.debug('No job summary: GITHUB_STEP_SUMMARY is not set (a runner always sets it).')
      return
    }
    try {
      await core.summary.addRaw(html).write()
    } catch (error) {
      core.warning(inertToRunner(`Could not write the job summary: ${errorMessage(error)}`))
    }
  }
  return {
    log: {
      info: (message) => {
        core.info(inertToRunner(message))
      },
      warning: (message) => {
        core.warning(inertToRunner(message))
      },
      debug: (message) => {
        core.debug(inertToRunner(message))
      }
    },
    outputs,
    writeSummary,
    fail,
    cannotStart: async (problems, what) => {
      outputs.set('outcome', 'error')
      outputs.set('result', refusedResult())
      outputs.finish()
      await writeSummary(inputErrorSummary(problems, what))
      fail(problems)
    },
    failUnexpected: (error, redact) => {
      outputs.set('outcome', 'error')
      fail(`Unexpected error: ${forLog(redact(errorMessage(error)), 1000)}`)
    },
    cutShort: async () => {
      outputs.finish({ outcome: 'cancelled' })
      if (!summarized) await writeSummary(CUT_SHORT)
    }
  }
}
