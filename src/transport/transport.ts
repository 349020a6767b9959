import type { Dispatcher } from 'undici'
import type { Redact } from '../text/redact.ts'

/**
 * What every client of the action (the admin API's, GitHub's) sends its requests with. Built once in main.ts and
 * handed to each client when it is made.
 */
export interface Transport {
  /** One connection pool (or proxy agent) for every request of the action. */
  readonly dispatcher: Dispatcher
  /** `<package>/<version>`: undici sends none of its own. */
  readonly userAgent: string
  /** Replaces the key and the GitHub token in text from outside before it is shown. */
  readonly redact: Redact
  /** Aborted when the workflow is cancelled (SIGINT or SIGTERM). */
  readonly cancelSignal: AbortSignal
}
