// The "What changed" section for the prompt (`context: auto`): what the event that started the run says, what
// GitHub says about it (a pull request's files, a push's compare), within one deadline, rendered within its budget.
// Loaded in a chunk of its own, only by runs that ask for it.
import { context } from '@actions/github'
import { factsFromEvent } from '../context/facts-from-event.ts'
import { renderChangeContext } from '../context/render.ts'
import type { Transport } from '../transport/transport.ts'
import { formatDuration } from '../text/duration.ts'
import { redactedDeep } from '../text/redact.ts'
import { type ReadChanges, readChanges } from './change-reader.ts'
import { createGitHubClient, githubAccess } from './octokit-client.ts'

export interface ChangeContextOptions {
  readonly token: string
  /** `owner/name`, from GITHUB_REPOSITORY. */
  readonly repository: string
  readonly transport: Transport
  /** The section's length at most, in characters. */
  readonly limit: number
  /** Everything read from GitHub ends within this. */
  readonly deadlineMs: number
  readonly log: { info(message: string): void; warning(message: string): void; debug(message: string): void }
}

/** What the action reads of the event. */
export type EventContext = Pick<typeof context, 'eventName' | 'payload' | 'apiUrl'>

/**
 * The section to append to the prompt; empty when the event describes no change. Never throws. What the event and
 * GitHub say is redacted before the section is built, since the section shortens what it quotes: a secret cut in
 * two would no longer be recognised.
 */
export async function gatherChangeContext(
  options: ChangeContextOptions,
  event: EventContext = context
): Promise<string> {
  const { log } = options
  const { redact } = options.transport
  const payload = redactedDeep(event.payload, redact) as EventContext['payload']
  const { facts, fetch } = factsFromEvent(event.eventName, payload, options.repository)
  if (facts.kind === 'none') {
    log.warning(`context: auto adds nothing: ${facts.reason}; the prompt is sent as given.`)
    return ''
  }
  const access = githubAccess(options.token, event.apiUrl, options.transport, (message) => {
    log.debug(message)
  })
  const github = createGitHubClient(options.transport, access, {
    deadlineMs: options.deadlineMs,
    cancellable: true,
    throttled: true
  })
  let read: ReadChanges
  try {
    read = await github.bounded(readChanges(github, fetch))
  } catch {
    const unreadable = 'what changed could not be read from GitHub in time'
    read = {
      fetched: { unreadable: [unreadable] },
      warnings: [`context: auto: ${unreadable} (${formatDuration(options.deadlineMs)}); the section leaves it out.`]
    }
  }
  for (const warning of read.warnings) log.warning(warning)
  const fetched = redactedDeep(read.fetched, redact) as ReadChanges['fetched']
  const rendered = renderChangeContext(facts, fetched, { limit: options.limit })
  const requests = github.requestCount()
  log.info(`${rendered.report.summary} GitHub requests: ${requests}.`)
  return rendered.text
}
