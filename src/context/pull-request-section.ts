import type { PullRequestFacts } from './change-facts.ts'
import { counted } from './counted.ts'
import type { FetchedChanges } from './fetched-changes.ts'
import { fileListing } from './file-listing.ts'
import { quoted } from './quoted.ts'
import { sanitizeBody } from './sanitize.ts'
import type { SectionPlan } from './section-plan.ts'

const MAX_LABELS = 20

function stateOf(facts: PullRequestFacts): string {
  if (facts.merged) return 'merged'
  return facts.closed ? 'closed without merging' : 'open'
}

function labelsLine(labels: readonly string[]): string {
  const shown = labels.slice(0, MAX_LABELS).map((label) => quoted(label, '(unnamed)'))
  const more = labels.length > MAX_LABELS ? ` and ${labels.length - MAX_LABELS} more` : ''
  return `- Labels: ${shown.join(', ')}${more}`
}

/** `4 files changed, +120 -8, 3 commits`, from what the payload counts. */
function sizeLine(facts: PullRequestFacts): string | undefined {
  const parts = [
    facts.changedFiles === undefined ? undefined : `${counted(facts.changedFiles, 'file')} changed`,
    facts.additions === undefined || facts.deletions === undefined
      ? undefined
      : `+${facts.additions} -${facts.deletions}`,
    facts.commitCount === undefined ? undefined : counted(facts.commitCount, 'commit')
  ].filter((part) => part !== undefined)
  return parts.length > 0 ? `- Size: ${parts.join(', ')}` : undefined
}

function factLines(facts: PullRequestFacts): string[] {
  const head = quoted(facts.headRef, '(unknown)')
  const fork = facts.headRepository === undefined ? '' : ` in ${quoted(facts.headRepository, '(unknown)')}`
  return [
    `- Title: ${quoted(facts.title, '(none)')}`,
    ...(facts.url ? [`- URL: ${quoted(facts.url, '')}`] : []),
    `- Author: ${quoted(facts.author, '(unknown)')}`,
    `- Base ← head: ${quoted(facts.baseRef, '(unknown)')} ← ${head}${fork}`,
    ...(facts.mergeCommitSha ? [`- Merge commit: ${quoted(facts.mergeCommitSha, '')}`] : []),
    ...(facts.labels.length > 0 ? [labelsLine(facts.labels)] : []),
    ...[sizeLine(facts)].filter((line) => line !== undefined)
  ]
}

export function pullRequestSection(facts: PullRequestFacts, fetched: FetchedChanges): SectionPlan {
  return {
    identity: `Pull request #${facts.number} in ${quoted(facts.repository, 'this repository')}, ${stateOf(facts)}`,
    facts: factLines(facts),
    commits: undefined,
    files: fetched.files
      ? fileListing(fetched.files, fetched.filesTotal ?? facts.changedFiles, fetched.filesUnusable)
      : undefined,
    quotes: [
      {
        label: 'Pull request body, as written by its author:',
        content: sanitizeBody(facts.body),
        ifEmpty: 'The pull request has no body.'
      }
    ]
  }
}
