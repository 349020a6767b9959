// What the action does to pull requests besides its tracking comment: on the agent's docs pull request (a note, a
// label, closing it, reading its files), and the check run on the code change that asked for it. Each is one piece of
// GitHub work, bounded and described in our own words when it fails; none throws.
import { randomUUID } from 'node:crypto'
import { forLog } from '../text/untrusted.ts'
import type { ChangedFile } from './change.ts'
import { changedFilesOf, GITHUB_MOST_FILES, listPullFiles } from './change-reader.ts'
import type { GitHubClient } from './octokit.ts'
import { briefFailure, docsAdvice, failureOf, permissionHint } from './failure.ts'
import type { GitHubSession } from './session.ts'
import { fieldsAt, fieldsOf, httpStatusOf, listOf, mayHaveLanded, positiveIntegerOf, textOf } from './fields.ts'

/** A pull request by its repository's owner and name, and its number. */
export interface PullRef {
  readonly owner: string
  readonly repo: string
  readonly number: number
}

/** A pull request's files, and whether GitHub listed all of them. */
export interface PullFiles {
  readonly files: readonly ChangedFile[]
  readonly complete: boolean
}

/** What a piece of work came to: done, or a warning that says what failed and what to do. */
export type Done<T> =
  { readonly kind: 'done'; readonly value: T } | { readonly kind: 'warning'; readonly warning: string }

/** A check run's state, as GitHub takes it. */
export interface CheckState {
  readonly status: 'in_progress' | 'completed'
  readonly conclusion?: 'success' | 'neutral' | 'failure' | 'cancelled'
  readonly title: string
  /** Markdown, within GitHub's 65,535 characters. */
  readonly summary: string
  readonly detailsUrl: string | undefined
}

/** GitHub refuses a check run's summary longer than this. */
const MAX_CHECK_SUMMARY = 65_535

/** The operations, with `docs-token` for the docs repository when given, else `github-token`. */
export function openPulls(session: GitHubSession): PullOperations {
  return new PullOperations(session)
}

export class PullOperations {
  readonly #session: GitHubSession

  constructor(session: GitHubSession) {
    this.#session = session
  }

  /** Posts a comment on the docs pull request. */
  comment(ref: PullRef, body: string): Promise<Done<void>> {
    return this.#onDocs(ref, `comment on ${describe(ref)}`, async (client, where) => {
      // Never twice: a 5xx may come after GitHub made the comment.
      await client.octokit.rest.issues.createComment({
        ...where,
        issue_number: ref.number,
        body,
        request: { retries: 0 }
      })
    })
  }

  /** Adds a label to the docs pull request. */
  label(ref: PullRef, label: string): Promise<Done<void>> {
    return this.#onDocs(ref, `label ${describe(ref)}`, async (client, where) => {
      await client.octokit.rest.issues.addLabels({ ...where, issue_number: ref.number, labels: [label] })
    })
  }

  /** Closes the docs pull request, unless it is closed (or merged) already: what it found, or did. */
  close(ref: PullRef): Promise<Done<'closed' | 'was-closed' | 'merged'>> {
    return this.#onDocs(ref, `close ${describe(ref)}`, async (client, where) => {
      const found = await pullState(client, where, ref)
      if (found !== 'open') return found === 'merged' ? 'merged' : 'was-closed'
      await client.octokit.rest.pulls.update({ ...where, pull_number: ref.number, state: 'closed' })
      return 'closed'
    })
  }

  /**
   * Reopens the docs pull request: what it found, or did. `refused`: GitHub would not (its branch is gone), and no
   * retry can help.
   */
  reopen(ref: PullRef): Promise<Done<'reopened' | 'open' | 'merged' | 'refused'>> {
    return this.#onDocs(ref, `reopen ${describe(ref)}`, async (client, where) => {
      const found = await pullState(client, where, ref)
      if (found !== 'closed') return found
      try {
        await client.octokit.rest.pulls.update({ ...where, pull_number: ref.number, state: 'open' })
      } catch (error) {
        if (httpStatusOf(error) === 422) return 'refused'
        throw error
      }
      return 'reopened'
    })
  }

  /** The files the docs pull request touches, as GitHub lists them (3,000 at most), and whether that is all. */
  files(ref: PullRef): Promise<Done<PullFiles>> {
    return this.#onDocs(ref, `read the files of ${describe(ref)}`, (client) => readFiles(client, ref))
  }

  /** The docs pull request's base and head commits. */
  commits(ref: PullRef): Promise<Done<PullCommits>> {
    return this.#onDocs(ref, `read ${describe(ref)}`, (client, where) => pullCommits(client, where, ref))
  }

  /** The head commit of a pull request of the workflow's repository, read for its check run. */
  head(number: number): Promise<Done<string>> {
    const ref = this.#own(number)
    const doing = `read the head commit of ${describe(ref)}`
    const advice = permissionHint('pull-requests: read')
    return this.#run('own', doing, advice, async (client) => {
      const { data } = await client.octokit.rest.pulls.get({ owner: ref.owner, repo: ref.repo, pull_number: number })
      return textOf(fieldsAt(data, 'head')['sha'])
    })
  }

  /**
   * Creates a check run on `headSha` of the workflow's repository: its id and address. Never blindly twice: GitHub may
   * have made a check run it answered with a 5xx or never answered at all, so before creating it again it looks for
   * that one, by its name, its head and the id this create gave it.
   */
  startCheck(name: string, headSha: string, state: CheckState) {
    const doing = `create the check run "${forLog(name, 100)}"`
    return this.#run('own', doing, CHECKS_ADVICE, async (client) => {
      const { owner, repo } = this.#own(0)
      const where = { owner, repo, name, head_sha: headSha, external_id: randomUUID() }
      const create = async () => {
        const created = await client.octokit.rest.checks.create({
          ...where,
          ...checkFields(state),
          request: { retries: 0 }
        })
        return madeCheck(created.data)
      }
      try {
        return await create()
      } catch (error) {
        if (!mayHaveLanded(error)) throw error
      }
      return (await findCheck(client, where)) ?? (await create())
    })
  }

  /**
   * Edits the check run. A cancelled run's last edit skips the queue that spaces writes a second apart: after a
   * SIGTERM the step has a second in all.
   */
  updateCheck(id: number, state: CheckState, cancelled = false): Promise<Done<void>> {
    const { owner, repo } = this.#own(0)
    const update = async (client: GitHubClient) => {
      await client.octokit.rest.checks.update({ owner, repo, check_run_id: id, ...checkFields(state) })
    }
    return this.#run('own', 'update the check run', CHECKS_ADVICE, update, !cancelled)
  }

  #onDocs<T>(
    ref: PullRef,
    doing: string,
    task: (client: GitHubClient, where: { owner: string; repo: string }) => Promise<T>
  ): Promise<Done<T>> {
    const advice = docsAdvice(this.#session, ref, 'pull-requests: write')
    return this.#run('docs', doing, advice, (client) => task(client, { owner: ref.owner, repo: ref.repo }))
  }

  /** A pull request of the workflow's repository (GITHUB_REPOSITORY). */
  #own(number: number): PullRef {
    const { owner = '', name: repo = '' } = this.#session.repo ?? {}
    return { owner, repo, number }
  }

  async #run<T>(
    as: 'own' | 'docs',
    doing: string,
    advice: string,
    task: (client: GitHubClient) => Promise<T>,
    throttled = true
  ): Promise<Done<T>> {
    const client = this.#session.client({ cancellable: false, throttled }, as)
    try {
      return { kind: 'done', value: await client.bounded(task(client)) }
    } catch (error) {
      const failure = failureOf(error, client, false)
      return { kind: 'warning', warning: briefFailure(`Could not ${doing}`, failure, { advice, refusedOn: REFUSALS }) }
    }
  }
}

const CHECKS_ADVICE = permissionHint('checks: write')
/** The answers that mean the token may not, or cannot see: the advice says what it needs. */
const REFUSALS = [401, 403, 404]

/** A pull request's base (what it would merge into) and head commits. */
export interface PullCommits {
  readonly base: string
  readonly head: string
}

async function pullCommits(client: GitHubClient, where: { owner: string; repo: string }, ref: PullRef) {
  const { data } = await client.octokit.rest.pulls.get({ ...where, pull_number: ref.number })
  return { base: textOf(fieldsAt(data, 'base')['sha']), head: textOf(fieldsAt(data, 'head')['sha']) }
}

async function pullState(
  client: GitHubClient,
  where: { owner: string; repo: string },
  ref: PullRef
): Promise<'open' | 'closed' | 'merged'> {
  const fields = fieldsOf((await client.octokit.rest.pulls.get({ ...where, pull_number: ref.number })).data)
  if (fields['merged'] === true) return 'merged'
  return textOf(fields['state']) === 'closed' ? 'closed' : 'open'
}

/** The check run a create made (found by its name, head and `external_id`), if it made one. */
async function findCheck(
  client: GitHubClient,
  made: { owner: string; repo: string; name: string; head_sha: string; external_id: string }
): Promise<{ id: number; url: string } | undefined> {
  const { owner, repo, name, head_sha: ref } = made
  const { data } = await client.octokit.rest.checks.listForRef({ owner, repo, ref, check_name: name, filter: 'all' })
  const found = listOf(fieldsOf(data)['check_runs']).find(
    (run) => textOf(fieldsOf(run)['external_id']) === made.external_id
  )
  return found === undefined ? undefined : madeCheck(found)
}

function madeCheck(data: unknown): { id: number; url: string } {
  const fields = fieldsOf(data)
  const id = positiveIntegerOf(fields['id'])
  if (id === undefined) throw new Error('GitHub gave the check run no id')
  return { id, url: textOf(fields['html_url']) }
}

function describe(ref: PullRef): string {
  return `pull request #${ref.number} in ${forLog(`${ref.owner}/${ref.repo}`, 100)}`
}

function checkFields(state: CheckState) {
  return {
    status: state.status,
    ...(state.conclusion ? { conclusion: state.conclusion } : {}),
    ...(state.detailsUrl ? { details_url: state.detailsUrl } : {}),
    output: { title: state.title, summary: state.summary.slice(0, MAX_CHECK_SUMMARY) }
  }
}

async function readFiles(client: GitHubClient, ref: PullRef): Promise<PullFiles> {
  const { owner, repo } = ref
  const read = await listPullFiles(client, { owner, repo, number: ref.number }, GITHUB_MOST_FILES)
  return { files: changedFilesOf(read.entries).files ?? [], complete: read.complete }
}
