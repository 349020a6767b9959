// Requests for docs from people: a comment whose first line starts with the command word, or the label added to an
// issue or pull request. What the event asks (read from its payload as if anything could be in it), whether the person
// may ask (their role on the repository, read from GitHub's collaborator permission, never from author_association),
// and the answers on GitHub: a reaction on the comment, a short reply, the label taken off again. Loaded in a chunk of
// its own, with Octokit.
import type { RequestSettings, Role } from '../inputs/mode-settings.ts'
import { ROLES } from '../inputs/mode-settings.ts'
import { forLog } from '../text/untrusted.ts'
import type { GitHubClient } from './octokit.ts'
import { fieldsAt, fieldsOf, httpStatusOf, positiveIntegerOf, textOf } from './fields.ts'
import { briefFailure, failureOf, permissionHint } from './failure.ts'
import type { GitHubSession } from './session.ts'
import { readMarker } from './tracking-record.ts'
import { COMMENT_EVENTS } from '../runner/events.ts'

/** What a request asks. */
export type Command =
  /** Instructions: a follow-up of the recorded job, or a new job when none is recorded or `fresh` says so. */
  | { readonly kind: 'ask'; readonly text: string; readonly fresh: boolean }
  | { readonly kind: 'status' }
  /** The command word with nothing after it. */
  | { readonly kind: 'usage' }
  /** The label added: `prompt` is the instruction. */
  | { readonly kind: 'label' }

export interface PersonRequest {
  /** The login of who asked: the comment's author, or who added the label. */
  readonly by: string
  readonly command: Command
  /** The issue or pull request asked on. */
  readonly number: number
  /** The comment that asked, for its reactions; undefined for a label. */
  readonly comment: { readonly id: number; readonly review: boolean } | undefined
}

export type RequestRead =
  | { readonly kind: 'request'; readonly request: PersonRequest }
  /** Not a request: why, in one line (`no command`). It gets no answer on GitHub. */
  | { readonly kind: 'ignored'; readonly reason: string }

/**
 * What the event asks, read from its payload alone, so that a comment that asks nothing costs no request; undefined
 * when the event is not one a person asks with (the step goes on as the mode says): a comment needs `command`, and
 * an issue's or a pull request's event is a request only when a label was added and `label` is set.
 */
export function readRequest(eventName: string, payload: unknown, requests: RequestSettings): RequestRead | undefined {
  const action = textOf(fieldsOf(payload)['action'])
  const commented = COMMENT_EVENTS.has(eventName) && requests.command !== undefined
  if (!commented && !(action === 'labeled' && requests.label !== undefined)) return undefined
  const number =
    positiveIntegerOf(fieldsAt(payload, 'issue')['number']) ??
    positiveIntegerOf(fieldsAt(payload, 'pull_request')['number'])
  if (number === undefined) return ignored('the event names no issue or pull request')
  if (!commented) return labelRequest(payload, requests.label ?? '', number)
  if (action === 'edited') return ignored('an edited comment is not a new request')
  if (action !== 'created') return ignored('no command')
  const comment = fieldsAt(payload, 'comment')
  const body = textOf(comment['body'])
  const command = parseCommand(body, requests.command)
  if (command === undefined) return ignored('no command')
  const author = fieldsAt(comment, 'user')
  if (readMarker(body) !== undefined || isBot(author)) return ignored("a bot's comment")
  const id = positiveIntegerOf(comment['id'])
  if (id === undefined) return ignored('the comment has no id')
  const review = eventName === 'pull_request_review_comment'
  return { kind: 'request', request: { by: textOf(author['login']), command, number, comment: { id, review } } }
}

function labelRequest(payload: unknown, label: string, number: number): RequestRead {
  const added = textOf(fieldsAt(payload, 'label')['name'])
  if (added.toLowerCase() !== label.toLowerCase()) {
    return ignored(`the label added is not "${forLog(label, 50)}"`)
  }
  const sender = fieldsAt(payload, 'sender')
  if (isBot(sender)) return ignored('the label was added by a bot')
  const request = { by: textOf(sender['login']), command: { kind: 'label' } as const, number, comment: undefined }
  return { kind: 'request', request }
}

function ignored(reason: string): RequestRead {
  return { kind: 'ignored', reason }
}

function isBot(user: Record<string, unknown>): boolean {
  return textOf(user['type']) === 'Bot' || textOf(user['login']).toLowerCase().endsWith('[bot]')
}

/**
 * The command in a comment: its first line starts with the word (any case), then a space or the line's end. What
 * follows, on that line and the next, is the instructions; `new` first asks for a new job, `status` alone for the
 * recorded job's state.
 */
export function parseCommand(body: string, word: string): Command | undefined {
  const text = body
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .trimStart()
  if (text.slice(0, word.length).toLowerCase() !== word.toLowerCase()) return undefined
  const rest = text.slice(word.length)
  if (rest !== '' && !/^\s/.test(rest)) return undefined
  const words = rest.trim()
  if (/^status$/i.test(words)) return { kind: 'status' }
  const fresh = /^new(\s|$)/i.test(words)
  const instructions = (fresh ? words.slice(3) : words).trim()
  return instructions === '' ? { kind: 'usage' } : { kind: 'ask', text: instructions, fresh }
}

/** A person's role as GitHub's collaborator permission gives it: `role_name` when it is a built-in role. */
export function roleOf(answer: unknown): Role {
  const fields = fieldsOf(answer)
  const named = textOf(fields['role_name']).toLowerCase()
  const role = ROLES.find((candidate) => candidate === named)
  if (role !== undefined) return role
  // A custom role: its base permission (read, write or admin) is what it grants.
  const base = textOf(fields['permission']).toLowerCase()
  return ROLES.find((candidate) => candidate === base) ?? 'none'
}

export type Reaction = 'eyes' | 'rocket' | 'confused'

/** The GitHub work of a request: who may ask, and the answers. Each bounded by its own deadline. */
export class RequestDesk {
  /** What the event asks; undefined when it is no request. */
  readonly read: RequestRead | undefined
  /** What happened in the event (`created`, `labeled`, `closed`…); empty when the payload does not say. */
  readonly action: string
  readonly #session: GitHubSession

  constructor(session: GitHubSession) {
    this.#session = session
    const { run, settings } = session
    this.read = readRequest(run.eventName, run.payload, settings.requests)
    this.action = textOf(fieldsOf(run.payload)['action'])
  }

  /** The person's role on the repository; throws with GitHub's reason when it cannot be read. */
  async role(login: string): Promise<Role> {
    return this.#work(async (client, where) => {
      try {
        const { data } = await client.octokit.rest.repos.getCollaboratorPermissionLevel({ ...where, username: login })
        return roleOf(data)
      } catch (error) {
        // Not a collaborator, and not a user GitHub knows: no role at all.
        if (httpStatusOf(error) === 404) return 'none'
        throw error
      }
    })
  }

  /** Adds a reaction to the comment that asked; a warning, never a failure, when it cannot. */
  async react(request: PersonRequest, content: Reaction): Promise<void> {
    const comment = request.comment
    if (comment === undefined) return
    await this.#answer(`Could not add the ${content} reaction to the comment that asked`, async (client, where) => {
      const reaction = { ...where, comment_id: comment.id, content }
      if (comment.review) await client.octokit.rest.reactions.createForPullRequestReviewComment(reaction)
      else await client.octokit.rest.reactions.createForIssueComment(reaction)
    })
  }

  /** A short reply on the issue or pull request; never sent twice, since a 5xx may come after GitHub made it. */
  async reply(request: PersonRequest, body: string): Promise<void> {
    await this.#answer(`Could not reply on #${request.number}`, async (client, where) => {
      await client.octokit.rest.issues.createComment({
        ...where,
        issue_number: request.number,
        body,
        request: { retries: 0 }
      })
    })
  }

  /** Takes the label off again, so that adding it asks again; one already gone is no failure. */
  async removeLabel(request: PersonRequest, label: string): Promise<void> {
    const what = `Could not take the label "${forLog(label, 50)}" off #${request.number}`
    await this.#answer(what, async (client, where) => {
      try {
        await client.octokit.rest.issues.removeLabel({ ...where, issue_number: request.number, name: label })
      } catch (error) {
        if (httpStatusOf(error) !== 404) throw error
      }
    })
  }

  /** One answer on GitHub: a warning that says what failed, never a failure of the step. */
  async #answer(what: string, task: (client: GitHubClient, where: Where) => Promise<void>): Promise<void> {
    const client = this.#session.client({ cancellable: false })
    try {
      await client.bounded(task(client, this.#where()))
    } catch (error) {
      const failure = failureOf(error, client, false)
      this.#session.log.warning(briefFailure(what, failure, { advice: ANSWER_ADVICE, refusedOn: [401, 403] }))
    }
  }

  #work<T>(task: (client: GitHubClient, where: Where) => Promise<T>): Promise<T> {
    const client = this.#session.client({ cancellable: false })
    return client.bounded(task(client, this.#where()))
  }

  #where(): Where {
    const { owner = '', name: repo = '' } = this.#session.repo ?? {}
    return { owner, repo }
  }
}

interface Where {
  readonly owner: string
  readonly repo: string
}

const ANSWER_ADVICE = permissionHint('issues: write (pull-requests: write on a pull request)')

export function openDesk(session: GitHubSession): RequestDesk {
  return new RequestDesk(session)
}
