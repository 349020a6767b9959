import type { EventFacts } from './change-facts.ts'
import { issueFacts } from './issue-facts.ts'
import { nothingToAdd } from './no-facts.ts'
import { pullRequestFacts } from './pull-request-facts.ts'
import { pushFacts } from './push-facts.ts'
import { releaseFacts } from './release-facts.ts'
import { repositoryName } from './repository-name.ts'

/** The event's name as our own words may quote it: the letters, digits and `_` of a GitHub event name. */
function eventLabel(eventName: string): string {
  return eventName.replace(/\W/g, '').slice(0, 50) || 'unnamed'
}

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
