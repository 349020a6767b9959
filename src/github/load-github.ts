// Octokit and the event context load in a chunk of their own, only for the runs that use GitHub.
import { errorMessage } from '../text/error-message.ts'
import { forLog } from '../text/untrusted-text.ts'
import type { ChangeContextOptions } from './change-context.ts'
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

/**
 * Loads the change reader and builds the prompt's "What changed" section; empty, with a warning, on any failure. The
 * warning is in our own words: an error here is the action's own, and its message could quote what GitHub sent.
 */
export async function loadChangeContext(options: ChangeContextOptions): Promise<string> {
  try {
    const { gatherChangeContext } = await import('./change-context.ts')
    return await gatherChangeContext(options)
  } catch {
    options.log.warning(
      'context: auto adds nothing: the section could not be built (an error in the action); the prompt is sent as given.'
    )
    return ''
  }
}
