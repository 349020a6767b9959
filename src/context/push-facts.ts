import type { ChangeFetch, Commit, EventFacts, PushFacts } from './change-facts.ts'
import { nothingToAdd } from './no-facts.ts'
import {
  countOf,
  fieldsAt,
  fieldsOf,
  firstTextOf,
  hasFields,
  httpUrlOf,
  isTrue,
  listOf,
  textOf
} from './payload-fields.ts'
import type { RepositoryName } from './repository-name.ts'

// A SHA-1 or SHA-256 object name: only such a name goes into the compare API's path.
const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i
// The `before` of a push that created its ref, and the `after` of one that deleted it.
const NO_COMMIT = /^0+$/

function commitOf(value: unknown): Commit {
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
    return { kind: 'nothing' }
  }
  return { kind: 'compare', owner: repository.owner, repo: repository.repo, base: before, head: after }
}

/** A `push` event: the ref, the commits the payload lists, and the commits to compare. */
export function pushFacts(payload: unknown, repository: RepositoryName | undefined): EventFacts {
  const push = fieldsOf(payload)
  if (!hasFields(push)) return nothingToAdd('the "push" event\'s payload is empty')
  const before = textOf(push['before'])
  const after = textOf(push['after'])
  const headCommit = commitOf(push['head_commit'])
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
    commits: listOf(push['commits']).map(commitOf).filter(isCommit),
    commitsTotal: countOf(push['size']),
    headCommit: isCommit(headCommit) ? headCommit : undefined
  }
  return { facts, fetch: compareOf(facts, repository) }
}
