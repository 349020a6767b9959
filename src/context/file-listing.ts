import { counted } from './counted.ts'
import type { ChangedFile, FileStatus } from './fetched-changes.ts'
import { generatedKind } from './generated-files.ts'
import { quoted } from './quoted.ts'
import { sanitizeDiff } from './sanitize.ts'
import type { DiffPlan, FileListing } from './section-plan.ts'

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
  | { readonly kind: 'skipped'; readonly why: 'generated' | 'noPatch'; readonly words: string }

function diffOf(file: ChangedFile): FileDiff {
  const generated = generatedKind(file.path)
  if (generated) return { kind: 'skipped', why: 'generated', words: `diff skipped: ${generated}` }
  const patch = sanitizeDiff(file.patch ?? '')
  return patch === '' ? { kind: 'skipped', why: 'noPatch', words: NO_PATCH } : { kind: 'shown', patch }
}

/** `(+3 -1)`, with `?` for a count GitHub did not give. */
function linesOf(file: ChangedFile): string {
  return `(+${file.additions ?? '?'} -${file.deletions ?? '?'})`
}

function itemOf(file: ChangedFile, diff: FileDiff): string {
  const from = file.previousPath ? ` from ${quoted(file.previousPath, '(unnamed)')}` : ''
  const skipped = diff.kind === 'skipped' ? `, ${diff.words}` : ''
  const status = STATUSES.has(file.status) ? file.status : 'changed'
  return `- ${status} ${quoted(file.path, '(unnamed)')}${from} ${linesOf(file)}${skipped}`
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
  const skipped = { generated: 0, noPatch: 0 }
  for (const file of listed) {
    const diff = diffOf(file)
    items.push(itemOf(file, diff))
    if (diff.kind === 'skipped') skipped[diff.why] += 1
    else diffs.push({ index: items.length - 1, label: `Diff of ${quoted(file.path, '(unnamed)')}:`, patch: diff.patch })
  }
  const list = {
    heading: `### Changed files (${total})`,
    items,
    alreadyLeftOut: total - listed.length,
    leftOutNote: (count: number) => `- … ${counted(count, 'more file')} left out`
  }
  return { list, total, diffs, skipped }
}
