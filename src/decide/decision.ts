// What the step decides with (the services it has set up), and what it decides: the job to wait for and the request
// that made it so, or why there is none.
import type { AgentJob } from '../admin-api/agent-job.ts'
import type { AdminApi } from '../admin-api/client.ts'
import type { CommentThread } from '../github/thread.ts'
import type { DocsSweep } from '../github/docs-sweep.ts'
import type { PullOperations } from '../github/pulls.ts'
import type { GitHubReads } from '../github/reads.ts'
import type { History } from '../github/history.ts'
import type { RequestDesk } from '../github/desk.ts'
import type { DocsReview } from '../github/review.ts'
import type { ArchiveRef, Tarball } from '../github/tarball.ts'
import type { Done } from '../github/pulls.ts'
import type { Submission } from '../github/tracking-record.ts'
import type { Settings } from '../inputs/settings.ts'
import type { Logger } from '../runner/io.ts'
import type { Redact } from '../text/redact.ts'
import type { CommentStart, TrackingComment } from '../report/tracking-comment.ts'
import type { StepClock } from '../wait/retry.ts'

/**
 * A service backed by a class, as the step uses it: its public side only. A class's #private fields make its type
 * nominal; this one is structural, so that a test's stand-in needs none of them.
 */
export type Service<T> = Pick<T, keyof T>

/** What the step has set up once its inputs are read, handed down whole. */
export interface StepSetup {
  readonly settings: Settings
  readonly clock: StepClock
  readonly startedAt: number
  /** When the step's time runs out. */
  readonly deadline: number
  readonly api: AdminApi
  /** The issue or pull request, when the step uses it and it could be opened. */
  readonly thread: CommentThread | undefined
  /** Why the issue or pull request could not be opened, when the step uses it. */
  readonly threadUnavailable: string | undefined
  /** The change the event is about, who the token acts as, the jobs started lately: when the step reads GitHub. */
  readonly reads: GitHubReads | undefined
  /** The docs pull request's note, label, closing and files, and the check run: when the step uses them. */
  readonly pulls: Service<PullOperations> | undefined
  /** With `mode: batch`: the branch's history, the merged pull requests, the digest issue. */
  readonly history: Service<History> | undefined
  /**
   * With `mode: sweep` (and a pair's `merge-approved`): the agent pull requests of a docs repository (`owner/name`;
   * undefined: the workflow's own) and their records.
   */
  readonly sweep: ((repository: string | undefined) => Service<DocsSweep>) | undefined
  /** With `grounding`: the code's tarball and the review on the docs pull request. */
  readonly codeReads: CodeReads | undefined
  /** The code: its repository (`owner/name`), a checkout in GITHUB_WORKSPACE if any, the commit the run describes. */
  readonly code: {
    readonly repository: string
    readonly workspace: string
    readonly head: () => Promise<Done<string>>
  }
  /** Who github-token acts as, asked of GitHub once; undefined without GitHub, or when it would not say. */
  readonly login: () => Promise<string | undefined>
  /** Who docs-token acts as, the same way. */
  readonly docsLogin: () => Promise<string | undefined>
  /** With `command` or `label`, on an event a person asks with: what they asked, and the answers on GitHub. */
  readonly desk: Service<RequestDesk> | undefined
  /** Hosts whose pull request URLs the action can read: github.com and the runner's own. */
  readonly githubHosts: ReadonlySet<string>
  /** GITHUB_RUN_ID, for when GitHub is not opened. */
  readonly runId: string
  /** This step within its run, `GITHUB_JOB/GITHUB_ACTION`. */
  readonly step: string
  readonly log: Logger
  /** Replaces the key and the token in what is shown or recorded: a prompt may quote them. */
  readonly redact: Redact
  /**
   * The job's tracking comment, with `comment: true` and GitHub opened; on `thread` (a sweep's record's own issue or
   * pull request) when given.
   */
  readonly openComment: (start: CommentStart, thread?: CommentThread) => TrackingComment | undefined
  /** The prompt as it is sent: with `context: auto`, followed by what changed. */
  readonly compose: (prompt: string) => Promise<string>
}

/** The grounding check's GitHub work: a repository's tarball, and the review on the docs pull request. */
export interface CodeReads {
  readonly tarball: (where: ArchiveRef) => Promise<Done<Tarball>>
  readonly review: Service<DocsReview>
}

/**
 * What a mode decided. `extra` is what that mode alone knows and does its after-job work with (a pair's docs pull
 * request, a batch's window, a person's request); the shared decisions carry none.
 */
export type Decision<Extra = never> =
  | {
      readonly kind: 'job'
      readonly jobId: string
      /** The job as the request's answer gave it; undefined when only waiting, or when the answer held none. */
      readonly job: AgentJob | undefined
      /** The request sent; undefined when none was. */
      readonly submission: Submission | undefined
      /** A follow-up was sent: the job's earlier, finished status may linger for a moment. */
      readonly followedUp: boolean
      /** This step started or followed up the job: it may not be readable for a moment. */
      readonly sent: boolean
      readonly comment: TrackingComment | undefined
      readonly extra?: Extra | undefined
    }
  /** Nothing worth a job: nothing was sent, and the reason (one line) says why. */
  | {
      readonly kind: 'skipped'
      readonly reason: string
      /** With `mode: batch`: the record of a batch whose every pull request the gates skipped. */
      readonly comment?: TrackingComment | undefined
      /** The job a status request read, and what it read. */
      readonly jobId?: string | undefined
      readonly job?: AgentJob | undefined
      readonly extra?: Extra | undefined
    }
  /**
   * Nothing to wait for: the reason says why (and, when a request may have reached the API, where to look); with
   * `rate-limited`, a quota (ours or Mintlify's) left no job to spend.
   */
  | {
      readonly kind: 'error' | 'cancelled' | 'rate-limited'
      readonly reason: string
      /** The comment that records what was tried, if any. */
      readonly comment?: TrackingComment | undefined
      /** The job a follow-up was for. */
      readonly jobId?: string | undefined
      /** The status of the API's no to the request (a 4xx): a 400 may say the job's state takes no follow-up. */
      readonly refusedWith?: number | undefined
      /** Cancelled before the prompt was sent: nothing was started, and no follow-up sent. */
      readonly nothingSent?: boolean
      readonly extra?: Extra | undefined
    }
