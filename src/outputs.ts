import type { WaitResult } from './poller.ts'

/**
 * The step's outputs about the job, as action.yml declares them: `status` (the last status the API returned;
 * empty when it never answered), `outcome`, `prLink`, `pr-number`, `pr-repository`, and `job` (the last job as
 * JSON).
 */
type Outputs = Readonly<Record<'status' | 'outcome' | 'prLink' | 'pr-number' | 'pr-repository' | 'job', string>>

/** The outputs when the inputs were invalid: `outcome` is `error`, the rest empty. */
export const INPUT_ERROR_OUTPUTS: Outputs = {
  status: '',
  outcome: 'error',
  prLink: '',
  'pr-number': '',
  'pr-repository': '',
  job: ''
}

export function outputsOf(result: WaitResult): Outputs {
  const pr = result.job?.pr
  const link = pr?.kind === 'link' ? pr : undefined
  return {
    status: result.job?.status ?? '',
    outcome: result.kind,
    prLink: link?.url.href ?? '',
    'pr-number': link?.pullRequest ? String(link.pullRequest.number) : '',
    'pr-repository': link?.pullRequest?.repository ?? '',
    job: result.job ? JSON.stringify(result.job.body) : ''
  }
}
