// The lines the section quotes from outside (a title, a path, a label, a commit's first line), and its lists: the
// changed files with the diffs to show, and the latest commits.
import type { ChangedFile, Commit, FileStatus } from '../github/change.ts'
import { codeSpan, commitSubject, sanitizeDiff, sanitizeLine } from '../text/untrusted.ts'
import type { ListPlan } from './budget.ts'
import { counted } from './tally.ts'

export interface DiffPlan {
  /** The file's place in the list of files. */
  readonly index: number
  /** Our own line above the diff, naming the file. */
  readonly label: string
  /** Sanitized, not empty. */
  readonly patch: string
}

export interface FileListing {
  readonly list: ListPlan
  /** How many files changed, listed or not. */
  readonly total: number
  /** The listed files' diffs to show, in the order GitHub listed the files. */
  readonly diffs: readonly DiffPlan[]
  readonly omitted: { readonly generated: number; readonly noPatch: number }
}

export interface CommitListing {
  readonly list: ListPlan
  readonly total: number
}

/** The longest one-line piece shown: a title, a path, a label, a name, a commit message's first line. */
export const LINE_MAX = 300

/** Untrusted one-line text, sanitized and in a code span; `ifEmpty` (our own words) when nothing is left of it. */
export function quoted(text: string, ifEmpty: string): string {
  const line = sanitizeLine(text, LINE_MAX)
  return line === '' ? ifEmpty : codeSpan(line)
}

/** The first line of an untrusted message, as quoted does it. */
export function quotedFirstLine(message: string, ifEmpty: string): string {
  const line = commitSubject(message, LINE_MAX)
  return line === '' ? ifEmpty : codeSpan(line)
}

/** A commit's short name, as GitHub shows it. */
export function quotedSha(sha: string): string {
  return quoted(Array.from(sanitizeLine(sha, 40)).slice(0, 7).join(''), '(unknown)')
}

/** Files whose diff tells the agent nothing about what to document: they are listed, but their diff is omitted. */
export type GeneratedKind = 'lock file' | 'minified file' | 'source map' | 'build output' | 'vendored code'

// Lock files not named `*.lock` (yarn.lock, Cargo.lock, Gemfile.lock, composer.lock, poetry.lock, Pipfile.lock,
// uv.lock and flake.lock are).
const LOCK_FILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'bun.lockb',
  'go.sum',
  'packages.lock.json',
  'gradle.lockfile'
])

const FOLDERS = new Map<string, GeneratedKind>([
  ['dist', 'build output'],
  ['build', 'build output'],
  ['vendor', 'vendored code'],
  ['node_modules', 'vendored code']
])

/** What kind of generated file the path names, or undefined for a file someone wrote. */
export function generatedKind(path: string): GeneratedKind | undefined {
  const segments = path.split('/')
  const name = segments.pop() ?? ''
  if (LOCK_FILES.has(name) || name.toLowerCase().endsWith('.lock')) return 'lock file'
  if (/\.min\.(?:js|mjs|cjs|css)$/i.test(name)) return 'minified file'
  if (/\.map$/i.test(name)) return 'source map'
  for (const segment of segments) {
    const kind = FOLDERS.get(segment)
    if (kind) return kind
  }
  return undefined
}

/** At most this many files are listed, as many as GitHub's compare API lists. */
export const MAX_FILES_LISTED = 300

const STATUSES: ReadonlySet<string> = new Set<FileStatus>([
  'added',
  'removed',
  'modified',
  'renamed',
  'copied',
  'changed',
  'unchanged'
])

// GitHub gives no patch for a binary file, a very large one, or one renamed without a change.
const NO_PATCH = 'no diff from GitHub (binary, too large or unchanged)'

type FileDiff =
  | { readonly kind: 'shown'; readonly patch: string }
  | { readonly kind: 'omitted'; readonly why: 'generated' | 'noPatch'; readonly words: string }

function diffOf(file: ChangedFile): FileDiff {
  const generated = generatedKind(file.path)
  if (generated) return { kind: 'omitted', why: 'generated', words: `diff skipped: ${generated}` }
  const patch = sanitizeDiff(file.patch ?? '')
  return patch === '' ? { kind: 'omitted', why: 'noPatch', words: NO_PATCH } : { kind: 'shown', patch }
}

/** `(+3 -1)`, with `?` for a count GitHub did not give. */
function linesOf(file: ChangedFile): string {
  return `(+${file.additions ?? '?'} -${file.deletions ?? '?'})`
}

function itemOf(file: ChangedFile, diff: FileDiff): string {
  const from = file.previousPath ? ` from ${quoted(file.previousPath, '(unnamed)')}` : ''
  const omitted = diff.kind === 'omitted' ? `, ${diff.words}` : ''
  const status = STATUSES.has(file.status) ? file.status : 'changed'
  return `- ${status} ${quoted(file.path, '(unnamed)')}${from} ${linesOf(file)}${omitted}`
}

/**
 * The changed files (the first MAX_FILES_LISTED, as GitHub listed them) and the diffs of those that have one; the
 * files GitHub listed without a usable name (`unusable`) are counted with those left out.
 */
export function fileListing(files: readonly ChangedFile[], filesTotal: number | undefined, unusable = 0): FileListing {
  const listed = files.slice(0, MAX_FILES_LISTED)
  const total = Math.max(filesTotal ?? 0, files.length + unusable)
  const items: string[] = []
  const diffs: DiffPlan[] = []
  const omitted = { generated: 0, noPatch: 0 }
  for (const file of listed) {
    const diff = diffOf(file)
    items.push(itemOf(file, diff))
    if (diff.kind === 'omitted') omitted[diff.why] += 1
    else diffs.push({ index: items.length - 1, label: `Diff of ${quoted(file.path, '(unnamed)')}:`, patch: diff.patch })
  }
  const list = {
    heading: `### Changed files (${total})`,
    items,
    alreadyLeftOut: total - listed.length,
    leftOutNote: (count: number) => `- … ${counted(count, 'more file')} left out`
  }
  return { list, total, diffs, omitted }
}

/** At most this many commits are listed: the latest. */
export const MAX_COMMITS_LISTED = 50

/** A commit's line: short sha, the first line of its message, its author. */
export function commitLine(commit: Commit): string {
  const author = quoted(commit.author, '')
  return `${quotedSha(commit.sha)} ${quotedFirstLine(commit.message, '(no message)')}${author ? ` by ${author}` : ''}`
}

/** The latest commits, newest first, from commits listed oldest first; `total` counts those not listed too. */
export function commitListing(oldestFirst: readonly Commit[], total: number | undefined): CommitListing {
  const shown = oldestFirst.slice(-MAX_COMMITS_LISTED).reverse()
  const all = Math.max(total ?? 0, oldestFirst.length)
  const list = {
    heading: `### Commits (${all}, newest first)`,
    items: shown.map((commit) => `- ${commitLine(commit)}`),
    alreadyLeftOut: all - shown.length,
    leftOutNote: (count: number) => `- … ${counted(count, 'earlier commit')} left out`
  }
  return { list, total: all }
}
