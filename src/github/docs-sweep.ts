// `mode: sweep`'s GitHub work, on the session: the docs repository's pull requests (read with docs-token, or
// github-token where the docs are the workflow's own), the action's records and the code pull requests in the
// workflow's repository, and the sweep's writes, never twice: a close, then its comment (unless the sweep's own comment
// is there already); a close, comment or merge GitHub answers with a 5xx, or not at all, is read back, never re-sent.
// Each piece of work is one client of the session's; what fails comes back as a warning worded by failure.ts.
import { forLog } from '../text/untrusted.ts'
import { type AgentRecord, type CodeState, isOwn, readCodeState, readRecords, type RecordsOf } from './agent-records.ts'
import {
  listOpen,
  listOpenedSince,
  type OpenPull,
  type PullDetails,
  readChecks,
  readDetails,
  readReopened,
  readTouched
} from './agent-pulls.ts'
import { briefFailure, failureOf, permissionHint } from './failure.ts'
import { fieldsOf, mayHaveLanded, textOf, unlessNotFound } from './fields.ts'
import type { GitHubClient } from './octokit.ts'
import type { Done } from './pulls.ts'
import type { GitHubSession } from './session.ts'
import { type OpenedThread, openThread } from './thread.ts'

/** A repository by its owner and name. */
export interface Where {
  readonly owner: string
  readonly repo: string
}

/** The first line of every comment the sweep writes; the finding follows it. */
export const SWEEP_MARK = '<!-- mintlify-agent-sweep'

/** The answers that mean the token may not, or cannot see: the advice says what it needs. */
const REFUSALS = [401, 403, 404]

/** The sweep of `repository` (`owner/name`), or of the workflow's own repository. */
export function openDocsSweep(session: GitHubSession, repository: string | undefined): DocsSweep {
  const [owner = '', repo = ''] = (repository ?? session.repository).split('/')
  return new DocsSweep(session, { owner, repo })
}

export class DocsSweep {
  readonly #session: GitHubSession
  readonly #docs: Where
  readonly #counts = { workflow: 0, docs: 0 }

  constructor(session: GitHubSession, docs: Where) {
    this.#session = session
    this.#docs = docs
  }

  /** The docs repository, `owner/name`. */
  get repository(): string {
    return `${this.#docs.owner}/${this.#docs.repo}`
  }

  /** The link to a pull request of the workflow's repository. */
  codeUrl(number: number): string {
    return `${this.#session.run.serverUrl.replace(/\/+$/, '')}/${this.#session.repository}/pull/${number}`
  }

  /** The requests sent so far, by repository: the workflow's (records, code pull requests) and the docs'. */
  requests(): { readonly workflow: number; readonly docs: number } {
    return { ...this.#counts }
  }

  /** Who github-token acts as: the only author of the action's records. */
  login(): Promise<string | undefined> {
    return this.#session.login()
  }

  listOpen(): Promise<Done<Awaited<ReturnType<typeof listOpen>>>> {
    return this.#read('docs', `list the pull requests of ${this.#name()}`, (client) => listOpen(client, this.#docs))
  }

  listOpenedSince(since: number): Promise<Done<Awaited<ReturnType<typeof listOpenedSince>>>> {
    const doing = `list the pull requests of ${this.#name()}`
    return this.#read('docs', doing, (client) => listOpenedSince(client, this.#docs, since))
  }

  /** The action's records in the workflow's repository updated since `since`. */
  records(since: number, of: RecordsOf): Promise<Done<{ records: AgentRecord[]; complete: boolean }>> {
    const doing = `read the records in ${this.#session.repository}`
    return this.#read('own', doing, (client) => readRecords(client, this.#own(), since, of))
  }

  /** How a code pull request of the workflow's repository stands; `unknown` when GitHub has none by that number. */
  codeState(number: number): Promise<Done<CodeState>> {
    const doing = `read pull request #${number} in ${this.#session.repository}`
    // Gone (deleted, or never a pull request): `unknown`, and the sweep leaves its docs pull request to people.
    const read = (client: GitHubClient) => readCodeState(client, this.#own(), number).catch(unlessNotFound)
    return this.#read('own', doing, async (client) => (await read(client)) ?? 'unknown')
  }

  details(pull: OpenPull): Promise<Done<PullDetails>> {
    return this.#read('docs', `read ${this.#about(pull.number)}`, (client) => readDetails(client, this.#docs, pull))
  }

  /** Whether a person committed to it or left a review comment. */
  touched(pull: OpenPull): Promise<Done<boolean>> {
    const doing = `read the commits of ${this.#about(pull.number)}`
    return this.#read('docs', doing, (client) => readTouched(client, this.#docs, pull))
  }

  /** Whether it was ever reopened: a pull request someone reopened is theirs, and never closed by a sweep again. */
  reopened(pull: OpenPull): Promise<Done<boolean>> {
    const doing = `read the events of ${this.#about(pull.number)}`
    return this.#read('docs', doing, async (client) =>
      readReopened(client, this.#docs, pull, await docsLogin(this.#session))
    )
  }

  checks(sha: string): Promise<Done<'pass' | 'fail' | 'pending'>> {
    const doing = `read the checks of ${forLog(sha, 40)} in ${this.#name()}`
    return this.#read('docs', doing, (client) => readChecks(client, this.#docs, sha))
  }

  /** The issue or pull request of the workflow's repository a record is on, to record a follow-up there first. */
  recordThread(issue: number): OpenedThread {
    return openThread(this.#session, issue)
  }

  /** Closes it, before its comment: a run stopped between them leaves it closed, never open under a closing comment. */
  close(number: number): Promise<Done<'closed'>> {
    const pull = { ...this.#docs, number }
    return this.#write(`close ${this.#about(number)}`, 'pull-requests: write', (client) => closeOnce(client, pull))
  }

  /** The sweep's comment on why it closed it, unless its own is there already (an earlier run's). */
  explain(number: number, body: string): Promise<Done<'commented'>> {
    const pull = { ...this.#docs, number }
    const comment = async (client: GitHubClient) => commentOnce(client, pull, body, await docsLogin(this.#session))
    return this.#write(`comment on ${this.#about(number)}`, 'pull-requests: write', comment)
  }

  /** Merges it at the head the sweep judged: a push since makes GitHub refuse. */
  merge(number: number, head: string | undefined): Promise<Done<'merged'>> {
    const needs = 'pull-requests: write and contents: write'
    return this.#write(`merge ${this.#about(number)}`, needs, (client) =>
      mergeOnce(client, { ...this.#docs, number }, head)
    )
  }

  #read<T>(as: 'own' | 'docs', doing: string, task: (client: GitHubClient) => Promise<T>): Promise<Done<T>> {
    const advice =
      as === 'own'
        ? permissionHint('issues: read and pull-requests: read')
        : `${this.#token()} needs pull-requests: read, checks: read and statuses: read on ${this.#name()}`
    return this.#run(as, doing, advice, task, true)
  }

  #write<T>(doing: string, needs: string, task: (client: GitHubClient) => Promise<T>): Promise<Done<T>> {
    return this.#run('docs', doing, `${this.#token()} needs ${needs} on ${this.#name()}`, task, false)
  }

  async #run<T>(
    as: 'own' | 'docs',
    doing: string,
    advice: string,
    task: (client: GitHubClient) => Promise<T>,
    cancellable: boolean
  ): Promise<Done<T>> {
    const client = this.#session.client({ cancellable }, as)
    try {
      return { kind: 'done', value: await client.bounded(task(client)) }
    } catch (error) {
      const failure = failureOf(error, client, this.#session.cancelSignal.aborted)
      return { kind: 'warning', warning: briefFailure(`Could not ${doing}`, failure, { advice, refusedOn: REFUSALS }) }
    } finally {
      this.#counts[as === 'own' ? 'workflow' : 'docs'] += client.callCount()
    }
  }

  #token(): string {
    return this.#session.docsToken ? 'docs-token' : 'github-token'
  }

  #name(): string {
    return forLog(`${this.#docs.owner}/${this.#docs.repo}`, 140)
  }

  #about(number: number): string {
    return `pull request #${number} in ${this.#name()}`
  }

  #own(): Where {
    const { owner = '', name: repo = '' } = this.#session.repo ?? {}
    return { owner, repo }
  }
}

/** Who the token on the docs repository acts as: the author of the sweep's comments and of a pair's reopens. */
async function docsLogin(session: GitHubSession): Promise<string> {
  const me = await (session.docsToken ? session.docsLogin() : session.login())
  if (me === undefined) throw new Error('GitHub did not say who the docs token acts as')
  return me
}

async function stateOf(client: GitHubClient, docs: Where, number: number): Promise<'open' | 'closed' | 'merged'> {
  const { data } = await client.octokit.rest.pulls.get({ ...docs, pull_number: number })
  if (fieldsOf(data)['merged'] === true) return 'merged'
  return textOf(fieldsOf(data)['state']) === 'closed' ? 'closed' : 'open'
}

/** Whether the sweep's own comment is on the pull request already. */
async function commented(client: GitHubClient, docs: Where, number: number, me: string): Promise<boolean> {
  const comments = await client.octokit.paginate(client.octokit.rest.issues.listComments, {
    ...docs,
    issue_number: number,
    per_page: 100
  })
  return comments.some((comment) => isOwn(comment, me) && textOf(fieldsOf(comment)['body']).startsWith(SWEEP_MARK))
}

type PullAt = Where & { readonly number: number }

/** The sweep's comment, unless its own is there already; sent once, and read back when its answer did not say. */
async function commentOnce(client: GitHubClient, pull: PullAt, body: string, me: string): Promise<'commented'> {
  const { owner, repo, number } = pull
  if (await commented(client, pull, number, me)) return 'commented'
  try {
    await client.octokit.rest.issues.createComment({ owner, repo, issue_number: number, body, request: { retries: 0 } })
  } catch (error) {
    if (!mayHaveLanded(error) || !(await commented(client, pull, number, me))) throw error
  }
  return 'commented'
}

async function closeOnce(client: GitHubClient, pull: PullAt): Promise<'closed'> {
  const close = { owner: pull.owner, repo: pull.repo, pull_number: pull.number, state: 'closed' } as const
  await landed(client, pull, 'closed', () => client.octokit.rest.pulls.update({ ...close, request: { retries: 0 } }))
  return 'closed'
}

async function mergeOnce(client: GitHubClient, pull: PullAt, head: string | undefined): Promise<'merged'> {
  const merge = { owner: pull.owner, repo: pull.repo, pull_number: pull.number, ...(head ? { sha: head } : {}) }
  await landed(client, pull, 'merged', () => client.octokit.rest.pulls.merge({ ...merge, request: { retries: 0 } }))
  return 'merged'
}

/** The write; when its answer did not say whether it landed, the pull request is read back instead of a second try. */
async function landed(client: GitHubClient, pull: PullAt, end: 'closed' | 'merged', write: () => Promise<unknown>) {
  try {
    await write()
  } catch (error) {
    if (!mayHaveLanded(error) || (await stateOf(client, pull, pull.number)) !== end) throw error
  }
}
