import type { EventFacts } from './change-facts.ts'

/** Nothing to add, and why (our own words, naming the event). */
export function nothingToAdd(reason: string): EventFacts {
  return { facts: { kind: 'none', reason }, fetch: { kind: 'nothing' } }
}
