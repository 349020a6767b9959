import type { WaitResult } from './poller.ts'
import { parsePullRequestUrl } from './pull-request-link.ts'
import { httpUrl } from './untrusted-text.ts'

/**
 * The step's outputs about the job, as action.yml declares them: `status` (the last status the API returned;
 * empty when it never answered), `outcome` (completed, archived, failed, timeout, error or cancelled), `prLink`,
 * `pr-number`, `pr-repository`, and `job` (the last job as JSON).
 */
export type Outputs = Readonly<Record<'status' | 'outcome' | 'prLink' | 'pr-number' | 'pr-repository' | 'job', string>>

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
