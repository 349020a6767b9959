// The step's whole exchange with the runner, through @actions/core: the log and its annotations, the outputs,
// the job summary, and the step's failure.
import * as core from '@actions/core'
import type { Redact } from '../text/redact.ts'
import { errorMessage } from '../text/error-message.ts'
import { forLog, inertToRunner } from '../text/untrusted-text.ts'
import { type OutputWriter, outputWriter } from './outputs.ts'
import { inputErrorSummary } from './summary.ts'

export interface Logger {
  info(message: string): void
  warning(message: string): void
  debug(message: string): void
}

export interface RunnerIo {
  readonly log: Logger
  readonly outputs: OutputWriter
  /** Writes the job summary; never throws. */
  writeSummary(html: string): Promise<void>
  /** Marks the step failed, with an error annotation. */
  fail(message: string): void
  /** The step did not start: outcome `error`, every other output empty, a summary of what to fix. */
  cannotStart(problems: string, what?: string): Promise<void>
  /** Something the action did not expect went wrong: outcome `error`, and the error's message, redacted. */
  failUnexpected(error: unknown, redact: Redact): void
}

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
  const writeSummary = async (html: string): Promise<void> => {
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
      outputs.finish()
      await writeSummary(inputErrorSummary(problems, what))
      fail(problems)
    },
    failUnexpected: (error, redact) => {
      outputs.set('outcome', 'error')
      fail(`Unexpected error: ${forLog(redact(errorMessage(error)), 1000)}`)
    }
  }
}
