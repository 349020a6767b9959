// What the step decides with (the services it has set up), and what it decides: the job to wait for and the request
// that made it so, or why there is none.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { AdminApi } from '../admin-api/client.ts'
import type { GitHub } from '../github/open.ts'
import type { TrackedRequest } from '../github/tracking-record.ts'
import type { Settings } from '../inputs/settings.ts'
import type { Logger } from '../runner/io.ts'
import type { Redact } from '../text/redact.ts'
import type { CommentStart, TrackingComment } from '../report/tracking-comment.ts'
import type { StepClock } from '../wait/retry.ts'

/** What the step has set up once its inputs are read, handed down whole. */
export interface StepSetup {
  readonly settings: Settings
  readonly clock: StepClock
  readonly startedAt: number
  /** When the step's time runs out. */
  readonly deadline: number
  readonly api: AdminApi
  /** The issue or pull request, when the step uses it and it could be opened. */
  readonly github: GitHub | undefined
  /** Why the issue or pull request could not be opened, when the step uses it. */
  readonly githubUnavailable: string | undefined
  /** GITHUB_RUN_ID, for when GitHub is not opened. */
  readonly runId: string
  /** This step within its run, `GITHUB_JOB/GITHUB_ACTION`. */
  readonly step: string
  readonly log: Logger
  /** Replaces the key and the token in what is shown or recorded: a prompt may quote them. */
  readonly redact: Redact
  /** The job's tracking comment, with `comment: true` and GitHub opened. */
  readonly openComment: (start: CommentStart) => TrackingComment | undefined
  /** The prompt as it is sent: with `context: auto`, followed by what changed. */
  readonly compose: (prompt: string) => Promise<string>
}

export type Decision =
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
      /** Cancelled before the prompt was sent: nothing was started, and no follow-up sent. */
      readonly nothingSent?: boolean
    }
