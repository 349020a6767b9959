// What the event that started the run says about the change, read from its payload as if anything could be in it:
// a field that is missing or of another type is empty, and an event without what it is about (its number) adds
// nothing.
import { eventLabel } from '../runner/events.ts'
import type {
  ChangeFetch,
  Commit,
  CommentFacts,
  EventFacts,
  IssueFacts,
  PullRequestFacts,
  PushFacts,
  ReleaseFacts
} from './change.ts'
import {
  countOf,
  type Fields,
  fieldsAt,
  fieldsOf,
  firstTextOf,
  hasFields,
  httpUrlOf,
  isTrue,
  listOf,
  positiveIntegerOf,
  postOf,
  textOf
} from './fields.ts'

/**
 * What the event that started the run says about the change, and what to read from GitHub to describe it.
 * `repository` is `owner/name` (GITHUB_REPOSITORY). The payload is read as if anything could be in it: a field that
 * is missing or of another type is empty, and an event without what it is about (its number) adds nothing.
 */
export function factsFromEvent(eventName: string, payload: unknown, repository: string): EventFacts {
  const event = eventLabel(eventName)
  const name = repositoryName(repository, payload)
  switch (event) {
    case 'pull_request':
    case 'pull_request_target':
    case 'pull_request_review_comment':
      return pullRequestFacts(event, payload, name)
    case 'push':
      return pushFacts(payload, name)
    case 'release':
      return releaseFacts(payload, name)
    case 'issues':
    case 'issue_comment':
      return issueFacts(event, payload, name)
    default:
      return nothingToAdd(`a "${event}" event describes no change`)
  }
}

/** Nothing to add, and why (our own words, naming the event). */
export function nothingToAdd(reason: string): EventFacts {
  return { facts: { kind: 'none', reason }, fetch: { kind: 'none' } }
}

export interface RepositoryName {
  readonly owner: string
  readonly repo: string
  /** `owner/repo`. */
  readonly fullName: string
}

// GitHub's owner and repository names: letters, digits, `-`, `_` and `.`, never `.` or `..` alone.
const FULL_NAME = /^([\w.-]+)\/([\w.-]+)$/

function parse(text: string): RepositoryName | undefined {
  const [, owner, repo] = FULL_NAME.exec(text.trim()) ?? []
  if (!owner || !repo || /^\.+$/.test(owner) || /^\.+$/.test(repo)) return undefined
  return { owner, repo, fullName: `${owner}/${repo}` }
}

/** The run's repository: GITHUB_REPOSITORY, or else the one the payload names; undefined when neither is a name. */
export function repositoryName(repository: string, payload: unknown): RepositoryName | undefined {
  return parse(repository) ?? parse(textOf(fieldsAt(payload, 'repository')['full_name']))
}

/** The head's repository when it is not the base's (a fork's pull request), compared without regard to case. */
function headRepositoryOf(pull: Fields, repository: RepositoryName | undefined): string | undefined {
  const head = textOf(fieldsAt(pull, 'head', 'repo')['full_name'])
  const base = textOf(fieldsAt(pull, 'base', 'repo')['full_name']) || (repository?.fullName ?? '')
  return head !== '' && head.toLowerCase() !== base.toLowerCase() ? head : undefined
}

/** The names of the labels of a pull request or an issue. */
function labelsOf(item: Fields): string[] {
  return listOf(item['labels'])
    .map((label) => textOf(fieldsOf(label)['name']))
    .filter((name) => name !== '')
}

/**
 * A `pull_request` or `pull_request_target` event, or a review comment on a pull request's diff: the pull request (and
 * the comment), and its files to read.
 */
export function pullRequestFacts(event: string, payload: unknown, repository: RepositoryName | undefined): EventFacts {
  const pull = fieldsAt(payload, 'pull_request')
  const number = positiveIntegerOf(pull['number']) ?? positiveIntegerOf(fieldsOf(payload)['number'])
  if (number === undefined) return nothingToAdd(`the "${event}" event's payload has no pull request number`)
  const merged = isTrue(pull['merged'])
  const head = textOf(fieldsAt(pull, 'head')['sha'])
  const created = Date.parse(textOf(pull['created_at']))
  const facts: PullRequestFacts = {
    kind: 'pull-request',
    action: textOf(fieldsOf(payload)['action']),
    draft: isTrue(pull['draft']),
    headSha: COMMIT_SHA.test(head) ? head.toLowerCase() : '',
    createdAt: Number.isFinite(created) ? created : undefined,
    repository: repository?.fullName ?? '',
    number,
    title: textOf(pull['title']),
    ...postOf(pull),
    baseRef: textOf(fieldsAt(pull, 'base')['ref']),
    headRef: textOf(fieldsAt(pull, 'head')['ref']),
    headRepository: headRepositoryOf(pull, repository),
    merged,
    closed: merged || pull['state'] === 'closed',
    mergeCommitSha: merged ? textOf(pull['merge_commit_sha']) || undefined : undefined,
    labels: labelsOf(pull),
    changedFiles: countOf(pull['changed_files']),
    additions: countOf(pull['additions']),
    deletions: countOf(pull['deletions']),
    commitCount: countOf(pull['commits']),
    comment: event === 'pull_request_review_comment' ? commentOf(payload) : undefined
  }
  if (!repository) return { facts, fetch: { kind: 'none' } }
  const { owner, repo } = repository
  return { facts, fetch: { kind: 'pull-request-files', owner, repo, number } }
}

// A SHA-1 or SHA-256 object name: only such a name goes into the compare API's path.
const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i
// The `before` of a push that created its ref, and the `after` of one that deleted it.
const NO_COMMIT = /^0+$/

function pushedCommitOf(value: unknown): Commit {
  const commit = fieldsOf(value)
  const author = fieldsAt(commit, 'author')
  return {
    sha: textOf(commit['id']),
    message: textOf(commit['message']),
    author: firstTextOf(author['username'], author['name'])
  }
}

function isCommit(commit: Commit): boolean {
  return commit.sha !== '' || commit.message !== ''
}

/** The commits to compare: none for a created or deleted ref (nothing before, or nothing after). */
function compareOf(facts: PushFacts, repository: RepositoryName | undefined): ChangeFetch {
  const { before, after } = facts
  if (!repository || facts.created || facts.deleted || !COMMIT_SHA.test(before) || !COMMIT_SHA.test(after)) {
    return { kind: 'none' }
  }
  return { kind: 'compare', owner: repository.owner, repo: repository.repo, base: before, head: after }
}

/** A `push` event: the ref, the commits the payload lists, and the commits to compare. */
export function pushFacts(payload: unknown, repository: RepositoryName | undefined): EventFacts {
  const push = fieldsOf(payload)
  if (!hasFields(push)) return nothingToAdd('the "push" event\'s payload is empty')
  const before = textOf(push['before'])
  const after = textOf(push['after'])
  const headCommit = pushedCommitOf(push['head_commit'])
  const facts: PushFacts = {
    kind: 'push',
    repository: repository?.fullName ?? '',
    ref: textOf(push['ref']),
    before,
    after,
    compareUrl: httpUrlOf(push['compare']),
    created: isTrue(push['created']) || NO_COMMIT.test(before),
    deleted: isTrue(push['deleted']) || NO_COMMIT.test(after),
    forced: isTrue(push['forced']),
    pusher: firstTextOf(fieldsAt(push, 'sender')['login'], fieldsAt(push, 'pusher')['name']),
    commits: listOf(push['commits']).map(pushedCommitOf).filter(isCommit),
    commitsTotal: countOf(push['size']),
    headCommit: isCommit(headCommit) ? headCommit : undefined
  }
  return { facts, fetch: compareOf(facts, repository) }
}

function commentOf(payload: unknown): CommentFacts | undefined {
  const comment = fieldsAt(payload, 'comment')
  if (!hasFields(comment)) return undefined
  return postOf(comment)
}

/** An `issues` or `issue_comment` event: the issue (or pull request conversation), and the comment if any. */
export function issueFacts(event: string, payload: unknown, repository: RepositoryName | undefined): EventFacts {
  const issue = fieldsAt(payload, 'issue')
  const number = positiveIntegerOf(issue['number'])
  if (number === undefined) return nothingToAdd(`the "${event}" event's payload has no issue number`)
  const facts: IssueFacts = {
    kind: 'issue',
    repository: repository?.fullName ?? '',
    number,
    title: textOf(issue['title']),
    ...postOf(issue),
    isPullRequest: hasFields(issue['pull_request']),
    labels: labelsOf(issue),
    comment: event === 'issue_comment' ? commentOf(payload) : undefined
  }
  // A pull request's conversation: its files and diff describe what the comment is about.
  if (!facts.isPullRequest || !repository) return { facts, fetch: { kind: 'none' } }
  const { owner, repo } = repository
  return { facts, fetch: { kind: 'pull-request-files', owner, repo, number } }
}

/** A `release` event: the release and its notes. */
export function releaseFacts(payload: unknown, repository: RepositoryName | undefined): EventFacts {
  const release = fieldsAt(payload, 'release')
  if (!hasFields(release)) return nothingToAdd('the "release" event\'s payload has no release')
  const facts: ReleaseFacts = {
    kind: 'release',
    repository: repository?.fullName ?? '',
    tag: textOf(release['tag_name']),
    name: textOf(release['name']),
    url: httpUrlOf(release['html_url']),
    author: textOf(fieldsAt(release, 'author')['login']),
    body: textOf(release['body']),
    draft: isTrue(release['draft']),
    prerelease: isTrue(release['prerelease'])
  }
  return { facts, fetch: { kind: 'none' } }
}

/** Where to comment: an issue or pull request of the workflow's repository. */
export interface CommentTarget {
  readonly owner: string
  readonly repo: string
  readonly number: number
  /** What the number names, when the event says; an explicit issue-number could be either. */
  readonly noun: 'issue' | 'pull request' | 'issue or pull request'
  /** Who named it: the `issue-number` input, the event, or a batch's search for its digest issue. */
  readonly from: 'issue-number' | 'event' | 'digest'
}

interface TargetSource {
  readonly issueNumber: number | undefined
  /** Who chose `issueNumber`: the input, unless a batch found its digest issue. */
  readonly issueNumberFrom?: 'issue-number' | 'digest' | undefined
  readonly eventName: string
  readonly payload: Record<string, unknown>
  /** The repository's owner and name, from GITHUB_REPOSITORY; undefined when it names none. */
  readonly repo: { readonly owner: string; readonly name: string } | undefined
}

type ResolvedTarget =
  { readonly kind: 'target'; readonly target: CommentTarget } | { readonly kind: 'none'; readonly reason: string }

function numberField(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null || !('number' in value)) return undefined
  return typeof value.number === 'number' && Number.isSafeInteger(value.number) && value.number > 0
    ? value.number
    : undefined
}

/**
 * The issue or pull request to comment on: `issue-number` if given, else the one the event is about
 * (`issues`, `issue_comment`, `pull_request`, `pull_request_target`, `pull_request_review`, ...).
 */
export function resolveCommentTarget(source: TargetSource): ResolvedTarget {
  if (source.repo === undefined)
    return { kind: 'none', reason: 'GITHUB_REPOSITORY is not set, so the repository is unknown' }
  const { owner, name: repo } = source.repo
  if (source.issueNumber !== undefined) {
    const from = source.issueNumberFrom ?? 'issue-number'
    return { kind: 'target', target: { owner, repo, number: source.issueNumber, noun: 'issue or pull request', from } }
  }
  const issue = source.payload['issue']
  const issueNumber = numberField(issue)
  if (issueNumber !== undefined) {
    // An issue_comment on a pull request carries the pull request as `issue`, marked by `pull_request`.
    const isPull = typeof issue === 'object' && issue !== null && 'pull_request' in issue
    const noun = isPull ? 'pull request' : 'issue'
    return { kind: 'target', target: { owner, repo, number: issueNumber, noun, from: 'event' } }
  }
  const pullNumber = numberField(source.payload['pull_request'])
  if (pullNumber !== undefined)
    return { kind: 'target', target: { owner, repo, number: pullNumber, noun: 'pull request', from: 'event' } }
  return {
    kind: 'none',
    reason: `the "${source.eventName}" event that started this run is about no issue or pull request; set issue-number to say where to comment`
  }
}
