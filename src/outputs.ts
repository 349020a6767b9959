import type { WaitResult } from './poller.ts'
import { parsePullRequestUrl } from './pull-request-link.ts'
import { httpUrl } from './untrusted-text.ts'

/** The step's outputs, as action.yml declares them. */
export interface Outputs {
  /** The last status the API returned; empty when it never answered. */
  readonly status: string
  /** completed, archived, failed, timeout, error or cancelled. */
  readonly outcome: string
  readonly prLink: string
  readonly 'pr-number': string
  readonly 'pr-repository': string
  /** The last job as JSON. */
  readonly job: string
}

export function outputsOf(result: WaitResult): Outputs {
  const pr = httpUrl(result.job?.prLink)
  const pull = pr ? parsePullRequestUrl(pr) : undefined
  return {
    status: result.job?.status ?? '',
    outcome: result.outcome,
    prLink: pr?.href ?? '',
    'pr-number': pull ? String(pull.number) : '',
    'pr-repository': pull?.repository ?? '',
    job: result.job ? JSON.stringify(result.job.body) : ''
  }
}
