import { codeSpan } from './fence.ts'
import { firstLineOf, sanitizeLine } from './sanitize.ts'

/** The longest one-line piece shown: a title, a path, a label, a name, a commit message's first line. */
export const LINE_MAX = 300

/** Untrusted one-line text, sanitized and in a code span; `ifEmpty` (our own words) when nothing is left of it. */
export function quoted(text: string, ifEmpty: string): string {
  const line = sanitizeLine(text, LINE_MAX)
  return line === '' ? ifEmpty : codeSpan(line)
}

/** The first line of an untrusted message, as quoted does it. */
export function quotedFirstLine(message: string, ifEmpty: string): string {
  const line = firstLineOf(message, LINE_MAX)
  return line === '' ? ifEmpty : codeSpan(line)
}

/** A commit's short name, as GitHub shows it. */
export function quotedSha(sha: string): string {
  return quoted(Array.from(sanitizeLine(sha, 40)).slice(0, 7).join(''), '(unknown)')
}
