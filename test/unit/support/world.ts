// The pieces a fake setup's world is made of, as GitHub and the admin API would give them: tracking comments and their
// records, job answers, the event's change, the branch's merged pull requests; and what a decision tells a user.
import { parseJob } from '../../../src/admin-api/agent-job.ts'
import type { PollResult, SubmitResult } from '../../../src/admin-api/job-answers.ts'
import type { Decision } from '../../../src/decide/decision.ts'
import type { BranchCommit, EventChange, MergedPull } from '../../../src/github/change.ts'
import { mergedPull } from '../../../src/github/change-reader.ts'
import { factsFromEvent } from '../../../src/github/event.ts'
import type { CommentWrite, StoredComment } from '../../../src/github/comment-store.ts'
import { promptHash, type Submission, type TrackingState } from '../../../src/github/tracking-record.ts'
import { NOW } from './fake-setup.ts'

/** A prompt sent by another run: run 7, attempt 1, to project `docs`. */
export function submission(more: Partial<Submission> = {}): Submission {
  return { kind: 'start', run: '7', attempt: 1, prompt: 'hash', line: 'Document it', project: 'docs', ...more }
}

/** The same prompt as this run's, sent by an earlier attempt of this run (run 42). */
export function earlierAttemptOf(prompt: string, more: Partial<Submission> = {}): Submission {
  return submission({ run: '42', attempt: 1, prompt: promptHash(prompt), step: 'docs/agent', ...more })
}

/** A tracking comment (id 5 unless told) recording a job and what was sent to it. */
export function trackedJob(job: string, more: Partial<TrackingState> = {}, id = 5): StoredComment {
  const state = { job, requests: [submission()], ...more }
  return { id, url: `https://github.com/acme/widgets/issues/12#issuecomment-${id}`, state }
}

/** The admin API's answer to a read of the job. */
export function jobRead(jobId: string, status: string, prLink: string | null = null): PollResult {
  const parsed = parseJob({ id: jobId, status, prLink }, { jobId, githubHosts: new Set(['github.com']) })
  if (parsed.kind !== 'job') throw new Error(parsed.reason)
  return parsed
}

export function refused(status: number): SubmitResult {
  return { kind: 'refused', reason: `The API refused (HTTP ${status}).`, status }
}

export const UNSURE: SubmitResult = { kind: 'unsure', reason: 'HTTP 502' }

export const HEAD = 'b'.repeat(40)
export const DOCS_PR = 'https://github.com/acme/docs/pull/7'

/** An event of pull request #128 of acme/widgets, head `HEAD` unless told, as `factsFromEvent` reads it. */
export function pullEvent(action: string, pull: Record<string, unknown> = {}): EventChange {
  const payload = {
    action,
    number: 128,
    pull_request: {
      number: 128,
      title: 'Add a retry option',
      html_url: 'https://github.com/acme/widgets/pull/128',
      state: action === 'closed' ? 'closed' : 'open',
      created_at: '2026-11-20T09:00:00Z',
      user: { login: 'octocat', type: 'User' },
      base: { ref: 'main' },
      head: { ref: 'retry', sha: HEAD },
      ...pull
    }
  }
  return { facts: factsFromEvent('pull_request', payload, 'acme/widgets').facts, fetched: {}, calls: 1 }
}

/** A push to main of acme/widgets by `author`. */
export function pushEvent(author = 'octocat'): EventChange {
  const commit = { id: 'c'.repeat(40), message: 'Retry', author: { username: author } }
  const payload = { ref: 'refs/heads/main', before: 'a'.repeat(40), after: commit.id, head_commit: commit }
  return { facts: factsFromEvent('push', payload, 'acme/widgets').facts, fetched: {}, calls: 1 }
}

/** Commit `n` on the branch: the higher `n`, the later, all within the last two hours. */
export function commitOf(n: number): BranchCommit {
  return { sha: shaOf(n), date: NOW - (100 - n) * 60_000, message: `Change #${n}`, author: 'octocat' }
}

/** Pull request #n, merged by commit `n`, by `author`. */
export function mergedBy(n: number, author = 'octocat'): MergedPull {
  const entry = {
    number: n,
    title: `Change #${n}`,
    html_url: `https://github.com/acme/widgets/pull/${n}`,
    merged_at: new Date(NOW).toISOString(),
    merge_commit_sha: shaOf(n),
    user: { login: author, type: author.endsWith('[bot]') ? 'Bot' : 'User' },
    base: { ref: 'main' }
  }
  const pull = mergedPull(entry, 'acme/widgets')
  if (pull === undefined) throw new Error(`pull request #${n} reads as none`)
  return pull
}

export function shaOf(n: number): string {
  return n.toString(16).padStart(40, 'c')
}

/** A decision's reason, as the step's log and outputs tell it; undefined for a job. */
export function reasonOf(decision: Decision<unknown>): string | undefined {
  return decision.kind === 'job' ? undefined : decision.reason
}

/** What the decision's tracking comment records when the step writes it next (its report). */
export async function nextRecord(decision: Decision<unknown>, writes: readonly CommentWrite[]) {
  decision.comment?.show({ kind: 'active' })
  await decision.comment?.settle()
  return writes.at(-1)?.state
}
