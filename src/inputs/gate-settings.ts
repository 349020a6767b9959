// What keeps a job from being spent: the gates that skip a change no reader of the docs would see (its files, its
// labels, its author, its size), a cap of our own on jobs an hour, and the note that tells the agent it may change
// nothing. Patterns are the workflow `paths:` syntax, matched by picomatch: `*`, `**`, `?`, `!` in order, the last
// match wins.
import picomatch from 'picomatch'
import type { InputReader } from './input-reader.ts'

/** Files a set of patterns selects: a file is in when the last pattern that matches it is not a `!` pattern. */
export interface PathFilter {
  /** As given, one a line. */
  readonly patterns: readonly string[]
  matches(path: string): boolean
}

export interface Gates {
  /** Only these files count as the change: none left means nothing to document. */
  readonly paths: PathFilter | undefined
  /** These files never count. */
  readonly pathsIgnore: PathFilter | undefined
  /** A pull request or issue with one of these labels (compared without regard to case) is skipped. */
  readonly skipLabels: readonly string[]
  /** A change by one of these logins (compared without regard to case) is skipped. */
  readonly skipAuthors: readonly string[]
  /** A change of fewer lines (added and removed) is skipped; 0 skips none. */
  readonly minChangedLines: number
}

/** The Mintlify agent's own GitHub identity: its pull requests and commits are never a reason for a job. */
export const MINTLIFY_BOT = 'mintlify[bot]'

/** A pattern compiled once; `*` stops at `/`, and dotfiles match as GitHub's filters match them. */
export function pathFilter(patterns: readonly string[]): PathFilter {
  const compiled = patterns.map((pattern) => {
    const negated = pattern.startsWith('!')
    return { negated, test: picomatch(negated ? pattern.slice(1) : pattern, { dot: true }) }
  })
  return {
    patterns,
    matches: (path) => {
      const last = compiled.findLast((pattern) => pattern.test(path))
      return last !== undefined && !last.negated
    }
  }
}

/** Whether a path counts as part of the change under these gates. */
export function countsAsChange(gates: Gates, path: string): boolean {
  return (gates.paths?.matches(path) ?? true) && !(gates.pathsIgnore?.matches(path) ?? false)
}

export function readGates(reader: InputReader): Gates {
  return {
    paths: readPatterns(reader, 'paths'),
    pathsIgnore: readPatterns(reader, 'paths-ignore'),
    skipLabels: readList(reader, 'skip-labels'),
    skipAuthors: readList(reader, 'skip-authors'),
    minChangedLines: readCount(reader, 'min-changed-lines', 'a whole number of lines, 0 for none') ?? 0
  }
}

/** `max-jobs-per-hour`: undefined when empty (no cap of ours). */
export function readMaxJobsPerHour(reader: InputReader): number | undefined {
  const cap = readCount(reader, 'max-jobs-per-hour', 'a whole number of jobs from 1 to 100, or empty for no cap')
  if (cap === 0 || (cap !== undefined && cap > 100)) {
    reader.problem(
      `Input "max-jobs-per-hour" must be a whole number of jobs from 1 to 100 (Mintlify allows 100 an hour), or empty for no cap; got "${reader.text('max-jobs-per-hour')}".`
    )
  }
  return cap
}

/** Newline-separated patterns, `#` lines and blank lines left out; undefined when there are none. */
export function readPatterns(reader: InputReader, name: string): PathFilter | undefined {
  const patterns = reader.source
    .getMultilineInput(name)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
  if (patterns.some((pattern) => pattern === '!')) {
    reader.problem(`Input "${name}" holds a "!" without a pattern after it.`)
    return undefined
  }
  const listed = patterns.find((pattern) => /,\s/.test(pattern))
  if (listed !== undefined) {
    reader.problem(`Input "${name}" takes one pattern per line, as a workflow's paths: does; got "${listed}".`)
    return undefined
  }
  if (patterns.length > 0 && patterns.every((pattern) => pattern.startsWith('!'))) {
    reader.problem(
      `Input "${name}" holds only "!" patterns, so no file would ever count: put a pattern that counts first (such as **), or list the files to leave out in ${name === 'paths' ? 'paths-ignore' : 'a pattern without "!"'}.`
    )
    return undefined
  }
  return patterns.length === 0 ? undefined : pathFilter(patterns)
}

/** Comma or newline separated, trimmed, lower-case. */
function readList(reader: InputReader, name: string): string[] {
  return reader.source
    .getMultilineInput(name)
    .flatMap((line) => line.split(','))
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '')
}

function readCount(reader: InputReader, name: string, what: string): number | undefined {
  const text = reader.text(name)
  if (text === '') return undefined
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    reader.problem(`Input "${name}" must be ${what}; got "${text}".`)
    return undefined
  }
  return Number(text)
}
