// What the section says about each kind of change (a pull request, a push, a release, an issue and its comment), in
// order, before the budget is reckoned.
import type {
  ChangeFacts,
  CommentFacts,
  FetchedChanges,
  IssueFacts,
  PullRequestFacts,
  PullRequestUpdateFacts,
  PushFacts,
  ReleaseFacts
} from '../github/change.ts'
import { sanitizeBody } from '../text/untrusted.ts'
import {
  commitLine,
  commitListing,
  type CommitListing,
  fileListing,
  type FileListing,
  quoted,
  quotedSha
} from './listings.ts'
import { counted } from './tally.ts'

/** A quoted body: a pull request's, an issue's, a comment's, or a release's notes. */
export interface QuotePlan {
  /** Our own line above the fenced body. */
  readonly label: string
  /** Sanitized; empty when there is nothing to quote. */
  readonly content: string
  /** Our own line in place of an empty body. */
  readonly ifEmpty: string
}

/** What the section will say, in order, before the budget is reckoned. */
export interface SectionPlan {
  /** The heading that names the change, such as "Pull request #12 in `acme/widgets`, merged". */
  readonly identity: string
  /** One line each, `- Name: value`. */
  readonly facts: readonly string[]
  readonly commits: CommitListing | undefined
  readonly files: FileListing | undefined
  readonly quotes: readonly QuotePlan[]
}

/** What the section says about this kind of change. */
export function sectionOf(facts: Exclude<ChangeFacts, { kind: 'none' }>, fetched: FetchedChanges): SectionPlan {
  switch (facts.kind) {
    case 'pull-request':
      return pullRequestSection(facts, fetched)
    case 'pull-request-update':
      return updateSection(facts, fetched)
    case 'push':
      return pushSection(facts, fetched)
    case 'release':
      return releaseSection(facts)
    case 'issue':
      return issueSection(facts, fetched)
  }
}

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

function pullRequestLines(facts: PullRequestFacts): string[] {
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
    identity: `Pull request #${facts.number} in ${quoted(facts.repository, 'this repository')}, ${stateOf(facts)}${facts.comment ? ' (a review comment on its diff)' : ''}`,
    facts: [...pullRequestLines(facts), ...(facts.comment ? [commentLine(facts.comment)] : [])],
    commits: undefined,
    files: fetched.files
      ? fileListing(fetched.files, fetched.filesTotal ?? facts.changedFiles, fetched.filesUnusable)
      : undefined,
    quotes: [
      {
        label: 'Pull request body, as written by its author:',
        content: sanitizeBody(facts.body),
        ifEmpty: 'The pull request has no body.'
      },
      ...(facts.comment ? [commentQuote(facts.comment)] : [])
    ]
  }
}

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

function pushLines(facts: PushFacts, listsCommits: boolean): string[] {
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
    facts: pushLines(facts, listsCommits),
    commits: listsCommits ? commitListing(commits, total) : undefined,
    files: fetched.files ? fileListing(fetched.files, fetched.filesTotal, fetched.filesUnusable) : undefined,
    quotes: []
  }
}

/** With `mode: pair`: only what changed in the pull request since the head the last prompt described. */
export function updateSection(facts: PullRequestUpdateFacts, fetched: FetchedChanges): SectionPlan {
  const commits = fetched.commits ?? []
  return {
    identity: `Pull request #${facts.number} in ${quoted(facts.repository, 'this repository')}: its new commits since the last prompt`,
    facts: [
      `- Title: ${quoted(facts.title, '(none)')}`,
      ...(facts.url ? [`- URL: ${quoted(facts.url, '')}`] : []),
      `- Head before → now: ${quotedSha(facts.before)} → ${quotedSha(facts.after)}`
    ],
    commits: commits.length > 0 ? commitListing(commits, fetched.commitsTotal) : undefined,
    files: fetched.files ? fileListing(fetched.files, fetched.filesTotal, fetched.filesUnusable) : undefined,
    quotes: []
  }
}

function commentLine(comment: CommentFacts): string {
  const url = comment.url ? `, ${quoted(comment.url, '')}` : ''
  return `- Comment that started this run: by ${quoted(comment.author, '(unknown)')}${url}`
}

function commentQuote(comment: CommentFacts): QuotePlan {
  return {
    label: 'Comment that started this run, as written by its author:',
    content: sanitizeBody(comment.body),
    ifEmpty: 'The comment that started this run is empty.'
  }
}

export function issueSection(facts: IssueFacts, fetched: FetchedChanges = {}): SectionPlan {
  const noun = facts.isPullRequest ? 'Pull request' : 'Issue'
  const where = facts.isPullRequest && facts.comment ? ' (a comment on its conversation)' : ''
  return {
    identity: `${noun} #${facts.number} in ${quoted(facts.repository, 'this repository')}${where}`,
    facts: [
      `- Title: ${quoted(facts.title, '(none)')}`,
      ...(facts.url ? [`- URL: ${quoted(facts.url, '')}`] : []),
      `- Author: ${quoted(facts.author, '(unknown)')}`,
      ...(facts.comment ? [commentLine(facts.comment)] : [])
    ],
    commits: undefined,
    files: fetched.files ? fileListing(fetched.files, fetched.filesTotal, fetched.filesUnusable) : undefined,
    quotes: [
      {
        label: `${noun} body, as written by its author:`,
        content: sanitizeBody(facts.body),
        ifEmpty: `The ${noun.toLowerCase()} has no body.`
      },
      ...(facts.comment ? [commentQuote(facts.comment)] : [])
    ]
  }
}

export function releaseSection(facts: ReleaseFacts): SectionPlan {
  const flags = [facts.draft ? 'a draft' : '', facts.prerelease ? 'a pre-release' : ''].filter(Boolean)
  return {
    identity: `Release ${quoted(facts.tag, '(untagged)')} in ${quoted(facts.repository, 'this repository')}${flags.map((flag) => `, ${flag}`).join('')}`,
    facts: [
      `- Name: ${quoted(facts.name, '(none)')}`,
      ...(facts.url ? [`- URL: ${quoted(facts.url, '')}`] : []),
      `- Author: ${quoted(facts.author, '(unknown)')}`
    ],
    commits: undefined,
    files: undefined,
    quotes: [
      {
        label: 'Release notes, as written by their author:',
        content: sanitizeBody(facts.body),
        ifEmpty: 'The release has no notes.'
      }
    ]
  }
}
