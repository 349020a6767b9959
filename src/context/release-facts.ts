import type { EventFacts, ReleaseFacts } from './change-facts.ts'
import { nothingToAdd } from './no-facts.ts'
import { fieldsAt, hasFields, httpUrlOf, isTrue, textOf } from './payload-fields.ts'
import type { RepositoryName } from './repository-name.ts'

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
  return { facts, fetch: { kind: 'nothing' } }
}
