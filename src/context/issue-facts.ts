import type { CommentFacts, EventFacts, IssueFacts } from './change-facts.ts'
import { nothingToAdd } from './no-facts.ts'
import { fieldsAt, hasFields, positiveIntegerOf, postOf, textOf } from './payload-fields.ts'
import type { RepositoryName } from './repository-name.ts'

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
    comment: event === 'issue_comment' ? commentOf(payload) : undefined
  }
  return { facts, fetch: { kind: 'nothing' } }
}
