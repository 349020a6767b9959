// GitHub's answers about a change, narrowed where they are read: the API's types say what GitHub means to send, not
// what an answer holds. A file without a usable name is left out and counted; any other field of the wrong type is
// taken as missing, as the event's payload is.
import type { Commit } from '../context/change-facts.ts'
import type { ChangedFile, FetchedChanges, FileStatus } from '../context/fetched-changes.ts'
import { countOf, fieldsAt, fieldsOf, firstTextOf, textOf } from '../context/payload-fields.ts'

const STATUSES: readonly FileStatus[] = ['added', 'removed', 'modified', 'renamed', 'copied', 'changed', 'unchanged']

function changedFileOf(entry: unknown): ChangedFile | undefined {
  const file = fieldsOf(entry)
  const path = textOf(file['filename'])
  if (path === '') return undefined
  return {
    path,
    previousPath: textOf(file['previous_filename']) || undefined,
    status: STATUSES.find((status) => status === file['status']) ?? 'changed',
    additions: countOf(file['additions']),
    deletions: countOf(file['deletions']),
    patch: textOf(file['patch']) || undefined
  }
}

/** The files GitHub listed, and how many of its entries had no usable name. */
export function changedFilesOf(entries: readonly unknown[]): Pick<FetchedChanges, 'files' | 'filesUnusable'> {
  const files = entries.map(changedFileOf).filter((file) => file !== undefined)
  return { files, filesUnusable: entries.length - files.length }
}

/** A commit the compare API lists: its sha, message and author, each empty when not text. */
export function commitOf(entry: unknown): Commit {
  const commit = fieldsOf(entry)
  return {
    sha: textOf(commit['sha']),
    message: textOf(fieldsAt(commit, 'commit')['message']),
    author: firstTextOf(fieldsAt(commit, 'author')['login'], fieldsAt(commit, 'commit', 'author')['name'])
  }
}
