// Whether to append what changed to the prompt, and how much of it.
import type { InputReader } from './input-reader.ts'

export interface PromptContext {
  /** `auto`: append a "What changed" section built from the event that started the run. */
  readonly context: 'none' | 'auto'
  /** The section's length at most, in characters. */
  readonly contextLimit: number
}

/** The API publishes no limit on a prompt's length; past this, a prompt stops being a prompt. */
const LARGEST_CONTEXT_LIMIT = 100_000

export function readPromptContext(reader: InputReader): PromptContext {
  const given = reader.text('context').toLowerCase()
  const context = given === 'auto' ? 'auto' : 'none'
  if (given !== 'auto' && given !== 'none') {
    reader.problem(`Input "context" must be none or auto; got "${reader.text('context')}".`)
  }
  const limitText = reader.text('context-limit')
  const contextLimit = /^\d+$/.test(limitText) ? Number(limitText) : Number.NaN
  if (!(contextLimit >= 500 && contextLimit <= LARGEST_CONTEXT_LIMIT)) {
    reader.problem(
      `Input "context-limit" must be a whole number of characters from 500 to ${LARGEST_CONTEXT_LIMIT.toLocaleString('en-US')}; got "${limitText}".`
    )
  }
  return { context, contextLimit }
}
