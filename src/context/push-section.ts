import type { PushFacts } from './change-facts.ts'
import { commitLine, commitListing } from './commit-listing.ts'
import type { FetchedChanges } from './fetched-changes.ts'
import { fileListing } from './file-listing.ts'
import { quoted, quotedSha } from './quoted.ts'
import type { SectionPlan } from './section-plan.ts'

/** What the ref names: a branch, a tag, or another ref. */
function refNoun(ref: string): string {
  if (ref.startsWith('refs/heads/')) return 'branch'
  return ref.startsWith('refs/tags/') ? 'tag' : 'ref'
}

/** What the push did to its ref, beyond adding commits. */
function eventLines(facts: PushFacts): string[] {
  const noun = refNoun(facts.ref)
  return [
    facts.created ? `- Created: this push created the ${noun}, so there is no earlier commit to compare with` : '',
    facts.deleted ? `- Deleted: this push deleted the ${noun}, so there is nothing to diff` : '',
    facts.forced ? `- Forced: this push rewrote the ${noun}'s history` : ''
  ].filter((line) => line !== '')
}

function factLines(facts: PushFacts, listsCommits: boolean): string[] {
  return [
    `- Before → after: ${quotedSha(facts.before)} → ${quotedSha(facts.after)}`,
    ...(facts.compareUrl ? [`- Compare: ${quoted(facts.compareUrl, '')}`] : []),
    ...eventLines(facts),
    `- Pushed by: ${quoted(facts.pusher, '(unknown)')}`,
    ...(!listsCommits && facts.headCommit ? [`- Head commit: ${commitLine(facts.headCommit)}`] : [])
  ]
}

export function pushSection(facts: PushFacts, fetched: FetchedChanges): SectionPlan {
  // The compare API's commits when read (up to 250), else the payload's.
  const commits = fetched.commits ?? facts.commits
  const total = Math.max(fetched.commitsTotal ?? 0, facts.commitsTotal ?? 0)
  const listsCommits = commits.length > 0
  return {
    identity: `Push to ${quoted(facts.ref, 'an unknown ref')} in ${quoted(facts.repository, 'this repository')}`,
    facts: factLines(facts, listsCommits),
    commits: listsCommits ? commitListing(commits, total) : undefined,
    files: fetched.files ? fileListing(fetched.files, fetched.filesTotal, fetched.filesUnusable) : undefined,
    quotes: []
  }
}
