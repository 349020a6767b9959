// The prompt as it is sent: with `context: auto`, followed by the "What changed" section, built from what the event
// that started the run says and what GitHub says about it, read within one deadline. Loaded in a chunk of its own,
// only by the runs that ask for it.
import { context } from '@actions/github'
import { readChanges, type ReadChanges } from '../github/change-reader.ts'
import { createGitHubClient, githubAccess } from '../github/client.ts'
import { factsFromEvent } from '../github/event.ts'
import type { Settings } from '../inputs/settings.ts'
import type { Logger } from '../runner/io.ts'
import type { Transport } from '../transport/transport.ts'
import { formatDuration } from '../text/duration.ts'
import { redactedDeep } from '../text/redact.ts'
import { renderChangeContext } from './render.ts'

/** What the action reads of the event. */
export type EventInfo = Pick<typeof context, 'eventName' | 'payload' | 'apiUrl'>

/** Where the section is read from, and where it says what it did. */
export interface Sources {
  readonly transport: Transport
  /** `owner/name`, from GITHUB_REPOSITORY. */
  readonly repository: string
  /** Everything read from GitHub ends within this. */
  readonly deadlineMs: number
  readonly log: Logger
}

/**
 * The prompt, and with `context: auto`, the "What changed" section after it. The section is quoted from others, so a
 * key or token pasted into a pull request is not passed on to the agent: what it quotes is redacted before it is
 * shortened, and the finished section once more, as the last thing before it leaves. The prompt you wrote is sent as
 * written.
 */
export async function composePrompt(prompt: string, settings: Settings, where: Sources): Promise<string> {
  if (settings.context !== 'auto') return prompt
  const section = await gatherChangeContext(settings, where)
  return section === '' ? prompt : `${prompt}\n\n${where.transport.redact(section)}`
}

/**
 * The section to append to the prompt; empty when the event describes no change. Never throws. What the event and
 * GitHub say is redacted before the section is built, since the section shortens what it quotes: a secret cut in
 * two would no longer be recognised.
 */
export async function gatherChangeContext(
  settings: Settings,
  where: Sources,
  event: EventInfo = context
): Promise<string> {
  const { log, transport } = where
  const { redact } = transport
  const payload = redactedDeep(event.payload, redact) as EventInfo['payload']
  const { facts, fetch } = factsFromEvent(event.eventName, payload, where.repository)
  if (facts.kind === 'none') {
    log.warning(`context: auto adds nothing: ${facts.reason}; the prompt is sent as given.`)
    return ''
  }
  const access = githubAccess(settings.githubToken, event.apiUrl, transport, (message) => {
    log.debug(message)
  })
  const github = createGitHubClient(transport, access, {
    deadlineMs: where.deadlineMs,
    cancellable: true,
    throttled: true,
    requestTimeoutMs: settings.requestTimeoutMs
  })
  let read: ReadChanges
  try {
    read = await github.bounded(readChanges(github, fetch))
  } catch {
    const unreadable = 'what changed could not be read from GitHub in time'
    read = {
      fetched: { unreadable: [unreadable] },
      warnings: [`context: auto: ${unreadable} (${formatDuration(where.deadlineMs)}); the section leaves it out.`]
    }
  }
  for (const warning of read.warnings) log.warning(warning)
  const fetched = redactedDeep(read.fetched, redact) as ReadChanges['fetched']
  const rendered = renderChangeContext(facts, fetched, { limit: settings.contextLimit })
  log.info(`${rendered.report.summary} GitHub requests: ${github.requestCount()}.`)
  return rendered.text
}
