import { fieldsAt, textOf } from './payload-fields.ts'

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
