// The prompt as it is sent: as written, or with `context: auto`, followed by our note that the agent may change
// nothing and by the "What changed" section, built from the change the event is about.
import type { EventChange } from '../github/change.ts'
import type { Settings } from '../inputs/settings.ts'
import type { Logger } from '../runner/io.ts'
import { renderChangeContext } from './render.ts'

/**
 * Our own instruction, above the section (which is material, not instructions): without it, an agent asked about a
 * change no reader of the docs would see opens a pull request anyway.
 */
export const NO_CHANGE_NOTE =
  '## An instruction from the workflow\n\n' +
  'If nothing that a reader of the docs would notice has changed, make no change and open no pull request.'

/**
 * The prompt, and with `context: auto`, the note and the "What changed" section after it. The section is quoted from
 * others, so a key or token pasted into a pull request is not passed on to the agent: what it quotes was redacted
 * where it was read, and the finished section is redacted once more, as the last thing before it leaves. The prompt
 * you wrote is sent as written.
 */
export function composePrompt(
  prompt: string,
  settings: Settings,
  change: EventChange | undefined,
  redact: (text: string) => string,
  log: Logger
): string {
  if (settings.context !== 'auto' || change === undefined) return prompt
  const { facts, fetched } = change
  if (facts.kind === 'none') {
    log.warning(`context: auto adds nothing: ${facts.reason}; the prompt is sent as given.`)
    return prompt
  }
  const rendered = renderChangeContext(facts, fetched, { limit: settings.contextLimit })
  log.info(`${rendered.report.summary} GitHub requests: ${change.requests}.`)
  if (rendered.text === '') return prompt
  const note = settings.noChangeNote ? `\n\n${NO_CHANGE_NOTE}` : ''
  return `${prompt}${note}\n\n${redact(rendered.text)}`
}
