// What a preview step ends with, and what it is given to get there.
import type { AdminApi } from '../admin-api/client.ts'
import type { PreviewBuild } from '../admin-api/preview-build.ts'
import type { Settings } from '../runner/settings/settings.ts'
import type { StepClock } from './clock.ts'

/** How the preview ended; `kind` is the `preview-status` output. */
export type PreviewOutcome =
  /** Nothing to preview, or previews are not on the plan: the reason says which. */
  | { readonly kind: 'unavailable'; readonly reason: string }
  | { readonly kind: 'error'; readonly reason: string; readonly url: string | undefined }
  /** Still queued or building when the time ran out (or the run was cancelled). */
  | { readonly kind: 'building'; readonly reason: string; readonly url: string | undefined }
  | { readonly kind: 'success' | 'failure'; readonly url: string | undefined; readonly build: PreviewBuild }

export interface PreviewContext {
  readonly api: Pick<AdminApi, 'triggerPreview' | 'readPreviewBuild'>
  readonly settings: Pick<Settings, 'requestTimeoutMs' | 'pollIntervalMs' | 'maxPollIntervalMs'>
  readonly deadline: number
  readonly clock: StepClock
  readonly log: (message: string) => void
  /** Told the preview's address as soon as the API gives it, before the build ends. */
  readonly building: (url: string | undefined) => void
}
