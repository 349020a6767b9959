import type { TrackedComment } from '../github/tracking-comments.ts'
import { tracksProject, UNKNOWN_JOB } from '../github/tracking-state.ts'
import type { Settings } from '../runner/settings/settings.ts'

export type RequestChoice =
  | { readonly kind: 'follow-up'; readonly jobId: string }
  /** `untracked`: a follow-up was asked for, but no job of this project is tracked on the issue yet. */
  | { readonly kind: 'start'; readonly untracked: boolean }

/**
 * Where the prompt goes: to job-id; with `follow-up`, to the job of this project whose tracking comment was
 * updated last; otherwise to a new job.
 */
export function chooseRequest(
  settings: Pick<Settings, 'jobId' | 'followUp' | 'projectId'>,
  tracked: readonly TrackedComment[]
): RequestChoice {
  if (settings.jobId !== undefined) return { kind: 'follow-up', jobId: settings.jobId }
  if (!settings.followUp) return { kind: 'start', untracked: false }
  const last = tracked.findLast(
    (comment) => comment.state.job !== UNKNOWN_JOB && tracksProject(comment.state, settings.projectId)
  )
  return last ? { kind: 'follow-up', jobId: last.state.job } : { kind: 'start', untracked: true }
}
