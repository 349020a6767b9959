import type { RunnerEnvironment } from '../runner/environment.ts'
import type { RunnerIo } from '../runner/runner-io.ts'
import type { Transport } from '../transport/transport.ts'

/** What main.ts hands the step: how to reach the outside, what the runner said, and how to talk back to it. */
export interface StepContext {
  readonly transport: Transport
  readonly environment: RunnerEnvironment
  readonly runner: RunnerIo
}
