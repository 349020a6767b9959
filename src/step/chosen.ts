// The job a step settles on, and what it needs to settle it.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { TrackedRequest } from '../github/tracking-state.ts'
import type { Settings } from '../runner/settings/settings.ts'
import type { SendContext } from './send-prompt.ts'
import type { StepSetup } from './step-setup.ts'
import type { TrackingComment } from './tracking-comment.ts'

export type Chosen =
  | {
      readonly kind: 'job'
      readonly jobId: string
      /** The job as the request's answer gave it; undefined when only waiting, or when the answer held none. */
      readonly job: AgentJob | undefined
      /** The request sent; undefined when none was. */
      readonly request: TrackedRequest | undefined
      /** A follow-up was sent: the job's earlier, finished status may linger for a moment. */
      readonly followedUp: boolean
      /** This step started or followed up the job: it may not be readable for a moment. */
      readonly sent: boolean
      readonly comment: TrackingComment | undefined
    }
  /** Nothing to wait for: the reason says why (and, when a request may have reached the API, where to look). */
  | {
      readonly kind: 'error' | 'cancelled'
      readonly reason: string
      /** The comment that records what was tried, if any. */
      readonly comment?: TrackingComment | undefined
      /** The job a follow-up was for. */
      readonly jobId?: string | undefined
    }

export interface ChooseContext extends Pick<
  StepSetup,
  'api' | 'github' | 'githubUnavailable' | 'deadline' | 'clock' | 'openComment' | 'compose'
> {
  readonly settings: SendContext['settings'] & Pick<Settings, 'jobId' | 'prompt' | 'followUp' | 'comment'>
  /** GITHUB_RUN_ID, for when GitHub is not opened, and the step (`GITHUB_JOB/GITHUB_ACTION`). */
  readonly runId: string
  readonly step: string
  readonly log: (message: string) => void
}
