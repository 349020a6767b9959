// Triggering the preview of a branch: the 202 gives the build to follow and the preview's address.
import { formatDuration } from '../text/duration.ts'
import { faultDelay } from './poll-schedule.ts'
import type { PreviewContext, PreviewOutcome } from './preview-outcome.ts'
import { requestBudget } from './time-budgets.ts'

/** Mintlify's published limit for triggering previews. */
const RATE_LIMIT_NOTE = 'Mintlify allows 5 preview deployments a minute per organization.'

type Triggered = { readonly kind: 'triggered'; readonly statusId: string; readonly url: string | undefined }

/** A trigger sent again is a rebuild at worst, so it is sent again after any fault, until the API answers it. */
export async function triggerBuild(branch: string, context: PreviewContext): Promise<Triggered | PreviewOutcome> {
  const { clock } = context
  for (let attempt = 1; ; attempt++) {
    const result = await context.api.triggerPreview(
      branch,
      requestBudget(context.settings.requestTimeoutMs, context.deadline, clock.now())
    )
    switch (result.kind) {
      case 'triggered':
        return { kind: 'triggered', statusId: result.statusId, url: result.previewUrl }
      case 'unavailable':
        return { kind: 'unavailable', reason: `previews are not on this organization's plan (${result.reason})` }
      case 'refused':
        return { kind: 'error', reason: `the preview could not be triggered: ${result.reason}`, url: undefined }
      case 'cancelled':
        return { kind: 'error', reason: 'the run was cancelled before the preview was triggered', url: undefined }
      case 'retry': {
        const limit = result.rateLimited ? ` ${RATE_LIMIT_NOTE}` : ''
        const waitMs = Math.max(result.retryAfterMs ?? 0, faultDelay(attempt, context.settings, clock.random))
        if (clock.now() + waitMs > context.deadline) {
          return {
            kind: 'error',
            reason: `the preview could not be triggered before the timeout: ${result.reason}.${limit}`,
            url: undefined
          }
        }
        context.log(
          `Could not trigger the preview: ${result.reason}.${limit} Trying again in ${formatDuration(waitMs)}.`
        )
        await clock.sleep(waitMs)
        if (clock.cancelled())
          return { kind: 'error', reason: 'the run was cancelled before the preview was triggered', url: undefined }
      }
    }
  }
}
