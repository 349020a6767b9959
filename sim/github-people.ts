// The people of the simulated GitHub: each login's role on the workflow's repository, as the collaborator permission
// endpoint gives it (`role_name`, and the older `permission` it maps to), and the reactions left on comments.
export interface Reaction {
  /** The comment reacted to: an issue comment's id, or a review comment's. */
  readonly commentId: number
  readonly review: boolean
  readonly content: string
  readonly user: string
}

/** The older `permission` each role maps to, as GitHub answers. */
const PERMISSION_OF: Readonly<Record<string, string>> = {
  admin: 'admin',
  maintain: 'write',
  write: 'write',
  triage: 'read',
  read: 'read',
  none: 'none'
}

/** What the collaborator permission endpoint answers for `login`: a 404 for a login GitHub does not know. */
export function permissionAnswer(
  roles: Readonly<Record<string, string>>,
  login: string
): { readonly status: number; readonly body: unknown } {
  if (login === '' || login === 'ghost') return { status: 404, body: { message: 'Not Found' } }
  // As on a public repository: anyone else may read.
  const role = roles[login] ?? 'read'
  const permission = PERMISSION_OF[role] ?? 'read'
  return { status: 200, body: { permission, role_name: role, user: { login, type: 'User' } } }
}

/** A reaction GitHub makes once per person and content: the second is answered 200 with the first. */
export function react(reactions: Reaction[], wanted: Reaction): { readonly status: number; readonly body: unknown } {
  const same = reactions.find(
    (reaction) =>
      reaction.commentId === wanted.commentId &&
      reaction.review === wanted.review &&
      reaction.content === wanted.content &&
      reaction.user === wanted.user
  )
  if (!same) reactions.push(wanted)
  const body = { id: reactions.indexOf(same ?? wanted) + 1, content: wanted.content, user: { login: wanted.user } }
  return { status: same ? 200 : 201, body }
}
