import type { EventFacts, PullRequestFacts } from './change-facts.ts'
import { nothingToAdd } from './no-facts.ts'
import {
  countOf,
  fieldsAt,
  fieldsOf,
  isTrue,
  listOf,
  positiveIntegerOf,
  postOf,
  textOf,
  type Fields
} from './payload-fields.ts'
import type { RepositoryName } from './repository-name.ts'

/** The head's repository when it is not the base's (a fork's pull request), compared without regard to case. */
function headRepositoryOf(pull: Fields, repository: RepositoryName | undefined): string | undefined {
  const head = textOf(fieldsAt(pull, 'head', 'repo')['full_name'])
  const base = textOf(fieldsAt(pull, 'base', 'repo')['full_name']) || (repository?.fullName ?? '')
  return head !== '' && head.toLowerCase() !== base.toLowerCase() ? head : undefined
}

function labelsOf(pull: Fields): string[] {
  return listOf(pull['labels'])
    .map((label) => textOf(fieldsOf(label)['name']))
    .filter((name) => name !== '')
}

/** A `pull_request` or `pull_request_target` event: the pull request, and its files to read. */
export function pullRequestFacts(event: string, payload: unknown, repository: RepositoryName | undefined): EventFacts {
  const pull = fieldsAt(payload, 'pull_request')
  const number = positiveIntegerOf(pull['number']) ?? positiveIntegerOf(fieldsOf(payload)['number'])
  if (number === undefined) return nothingToAdd(`the "${event}" event's payload has no pull request number`)
  const merged = isTrue(pull['merged'])
  const facts: PullRequestFacts = {
    kind: 'pull-request',
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
    commitCount: countOf(pull['commits'])
  }
  if (!repository) return { facts, fetch: { kind: 'nothing' } }
  const { owner, repo } = repository
  return { facts, fetch: { kind: 'pull-request-files', owner, repo, number } }
}
