// The preview of the agent's branch: triggered once the job has completed with a pull request, followed until it
// is built or fails, within what is left of the step's time. Nothing here changes the job's own outcome.
import type { AgentJob } from '../admin-api/agent-job.ts'
import { forLog } from '../text/untrusted-text.ts'
import { waitForBuild } from './preview-build-wait.ts'
import type { PreviewContext, PreviewOutcome } from './preview-outcome.ts'
import { triggerBuild } from './preview-trigger.ts'

/** Why there is nothing to preview, or the branch to build. */
export function previewPlan(
  outcome: string,
  job: AgentJob | undefined
): { readonly kind: 'skip'; readonly reason: string } | { readonly kind: 'build'; readonly branch: string } {
  if (outcome !== 'completed')
    return { kind: 'skip', reason: `the job ended ${outcome}, so there is nothing to preview` }
  if (job?.pr.kind !== 'link')
    return { kind: 'skip', reason: 'the agent changed no files, so there is nothing to preview' }
  if (!job.ref) return { kind: 'skip', reason: 'the API gave no branch for the job (source.ref)' }
  return { kind: 'build', branch: job.ref }
}

export async function buildPreview(branch: string, context: PreviewContext): Promise<PreviewOutcome> {
  context.log(`Triggering the preview of branch "${forLog(branch)}".`)
  const triggered = await triggerBuild(branch, context)
  if (triggered.kind !== 'triggered') return triggered
  context.building(triggered.url)
  context.log(`The preview will be at ${triggered.url ?? '(no address given)'}; waiting for its build.`)
  return waitForBuild(triggered.statusId, triggered.url, context)
}
