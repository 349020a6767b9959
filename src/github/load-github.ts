// Octokit and the event context load in a chunk of their own, only for the runs that use GitHub.
import { errorMessage } from '../text/error-message.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { GitHubSideOptions, OpenedGitHub } from './open-github.ts'

/** Loads and opens the GitHub side. Never throws. */
export async function loadGitHubSide(options: GitHubSideOptions): Promise<OpenedGitHub> {
  try {
    const { openGitHubSide } = await import('./open-github.ts')
    return openGitHubSide(options)
  } catch (error) {
    const reason = forLog(options.transport.redact(errorMessage(error)), 300)
    return { kind: 'unavailable', reason: `GitHub could not be set up (${reason})` }
  }
}
