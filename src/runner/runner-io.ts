// The step's whole exchange with the runner, through @actions/core: the log and its annotations, the outputs,
// the job summary, and the step's failure.
import * as core from '@actions/core'
import { errorMessage } from '../text/error-message.ts'
import { type OutputWriter, outputWriter } from './outputs.ts'

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
}

/** `summaryPath`: GITHUB_STEP_SUMMARY, which a runner always sets. */
export function coreRunnerIo(summaryPath: string | undefined): RunnerIo {
  return {
    log: {
      info: (message) => {
        core.info(message)
      },
      warning: (message) => {
        core.warning(message)
      },
      debug: (message) => {
        core.debug(message)
      }
    },
    outputs: outputWriter(core.setOutput),
    writeSummary: async (html) => {
      if (summaryPath === undefined) {
        core.debug('No job summary: GITHUB_STEP_SUMMARY is not set (a runner always sets it).')
        return
      }
      try {
        await core.summary.addRaw(html).write()
      } catch (error) {
        core.warning(`Could not write the job summary: ${errorMessage(error)}`)
      }
    },
    fail: (message) => {
      core.setFailed(message)
    }
  }
}
