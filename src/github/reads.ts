// What a step reads of GitHub before it spends a job, beyond its own issue: the change the event is about, who the
// token acts as, and how many jobs the action started in the repository lately, by its own records. Each is read once,
// only when asked for, within its own deadline. Loaded in a chunk of its own, with Octokit.
import type { Settings } from '../inputs/settings.ts'
import { redactedDeep } from '../text/redact.ts'
import type { EventChange, PullRequestFacts } from './change.ts'
import { readChanges, readEventChange } from './change-reader.ts'
import { isAuthor } from './octokit.ts'
import { fieldsAt, httpStatusOf, listOf, textOf } from './fields.ts'
import type { GitHubSession } from './session.ts'
import { readMarker, type TrackingState, tracksProject } from './tracking-record.ts'

export interface GitHubReads {
  /** The change the event is about, with its files when the settings need them. Never throws. */
  change(): Promise<EventChange>
  /**
   * How many jobs of this project the action started in the repository since `since` (milliseconds since the epoch),
   * by the records in its own tracking comments, leaving out those of this step in this workflow run (a re-run
   * decides about its earlier attempts on its own); the run's other jobs and steps (a matrix) count. Counted up to
   * `max-jobs-per-hour`, where the answer is known. Never throws.
   */
  startsSince(since: number, run: { readonly runId: string; readonly step: string }): Promise<JobCount>
  /**
   * With `mode: pair`: what changed in the pull request since the head `before` (its compare up to its head now), as a
   * change to describe; its `fetched.compareStatus` says whether `before` is still in its history. Never throws.
   */
  since(pull: PullRequestFacts, before: string): Promise<EventChange>
  /**
   * Whether one of the action's own records names this pull request as the docs pull request its job opened, read
   * from every comment written since `since` (up to 10,000); `unknown` when they could not all be read.
   */
  recordsAsDocs(url: string, since: number): Promise<DocsPullRecord>
  /**
   * The issue that holds the latest of the action's own batch records of this project, among the repository's most
   * recently updated comments; `complete` is false when there were more than it looks through. Throws what GitHub threw.
   */
  latestBatchRecord(): Promise<{ readonly issue: number | undefined; readonly complete: boolean }>
}

/** The jobs started lately, or why they could not be counted. */
export type JobCount =
  | { readonly kind: 'counted'; readonly starts: number }
  /** Why, in our own words, with what to do. */
  | { readonly kind: 'uncounted'; readonly why: string }

/** The most comments looked through for a record (the docs pull request's, the latest batch's): 10 pages of 100. */
const MOST_COMMENT_PAGES = 10
/**
 * The most comments looked through to count the jobs started in the last hour: 100 pages of 100. Every comment
 * written in the hour must be read, others' too, for the count to hold.
 */
const MOST_COUNTED_PAGES = 100

export function openReads(session: GitHubSession): GitHubReads {
  return new Reads(session)
}

class Reads implements GitHubReads {
  readonly #session: GitHubSession
  readonly #settings: Settings
  #change: Promise<EventChange> | undefined

  constructor(session: GitHubSession) {
    this.#session = session
    this.#settings = session.settings
  }

  change(): Promise<EventChange> {
    this.#change ??= readEventChange(this.#session)
    return this.#change
  }

  async startsSince(since: number, run: { readonly runId: string; readonly step: string }): Promise<JobCount> {
    const wanted = { project: this.#settings.projectId, since, ...run }
    const enough = this.#settings.maxJobsPerHour ?? Number.POSITIVE_INFINITY
    let starts = 0
    const which = { since: new Date(since).toISOString(), pages: MOST_COUNTED_PAGES }
    try {
      const read = await this.#ownRecords(which, (state) => (starts += startsIn(state, wanted)) >= enough)
      if (read === 'unreadable') return uncounted('GitHub did not say who the token acts as, whose records to count')
      if (read === 'capped') {
        return uncounted(
          `${mostCounted()} comments were written in the repository in the last hour, more than the count reads`
        )
      }
      return { kind: 'counted', starts }
    } catch (error) {
      return uncounted(unlisted(error))
    }
  }

  async recordsAsDocs(url: string, since: number): Promise<DocsPullRecord> {
    const which = { since: new Date(since).toISOString(), pages: MOST_COUNTED_PAGES }
    try {
      const read = await this.#ownRecords(which, (state) => state.pr === url)
      if (read === 'unreadable') return { kind: 'unknown', why: 'GitHub did not say who the token acts as' }
      if (read === 'capped') return { kind: 'unknown', why: `${mostCounted()} comments were written since it opened` }
      return { kind: read === 'stopped' ? 'own' : 'not own' }
    } catch (error) {
      return { kind: 'unknown', why: unlisted(error) }
    }
  }

  async latestBatchRecord(): Promise<{ readonly issue: number | undefined; readonly complete: boolean }> {
    let issue: number | undefined
    const read = await this.#ownRecords({ sort: 'updated', direction: 'desc' }, (state, comment) => {
      if (!state.batch || !tracksProject(state, this.#settings.projectId)) return false
      const number = Number(/\/issues\/(\d+)$/.exec(textOf(fieldsAt(comment)['issue_url']))?.[1])
      if (Number.isSafeInteger(number)) issue = number
      return issue !== undefined
    })
    if (read === 'unreadable') throw new Error('GitHub did not say who the token acts as')
    return { issue, complete: read !== 'capped' }
  }

  async since(pull: PullRequestFacts, before: string): Promise<EventChange> {
    const { owner = '', name: repo = '' } = this.#session.repo ?? {}
    const facts = { kind: 'pull-request-update', before, after: pull.headSha, ...pick(pull) } as const
    const github = this.#client()
    const fetch = { kind: 'compare', owner, repo, base: before, head: pull.headSha } as const
    const read = await github.bounded(readChanges(github, fetch)).catch(() => ({ fetched: {}, warnings: [] }))
    for (const warning of read.warnings) this.#session.log.warning(warning)
    const fetched = redactedDeep(read.fetched, this.#session.redact) as EventChange['fetched']
    return { facts, fetched, calls: github.callCount() }
  }

  /**
   * Goes through the records in the action's own comments of the repository (`which`: since when, in what order), at
   * most 10 pages, until `visit` says stop: `stopped`, `read` (all of them), `capped`, or `unreadable` without the
   * token's identity. Throws when GitHub fails.
   */
  async #ownRecords(
    which: { readonly since?: string; readonly sort?: 'updated'; readonly direction?: 'desc'; readonly pages?: number },
    visit: (state: TrackingState, comment: unknown) => boolean
  ): Promise<'stopped' | 'read' | 'capped' | 'unreadable'> {
    const me = await this.#session.login()
    if (this.#session.repo === undefined || me === undefined) return 'unreadable'
    const { owner, name: repo } = this.#session.repo
    const github = this.#client()
    const { pages = MOST_COMMENT_PAGES, ...order } = which
    const search = async () => {
      let page = 0
      const list = github.octokit.rest.issues.listCommentsForRepo
      for await (const { data, headers } of github.octokit.paginate.iterator(list, {
        owner,
        repo,
        ...order,
        per_page: 100
      })) {
        for (const comment of listOf(data)) {
          const state = ownRecord(comment, me)
          if (state && visit(state, comment)) return 'stopped'
        }
        if (++page >= pages) return /\brel="next"/.test(headers.link ?? '') ? 'capped' : 'read'
      }
      return 'read'
    }
    return github.bounded(search())
  }

  #client() {
    return this.#session.client({ cancellable: true })
  }
}

function uncounted(why: string): JobCount {
  return { kind: 'uncounted', why }
}

/** Whether a pull request is one a job of the action opened, as its records tell. */
export type DocsPullRecord =
  { readonly kind: 'own' } | { readonly kind: 'not own' } | { readonly kind: 'unknown'; readonly why: string }

/** More than the comments a count reads, in words. */
function mostCounted(): string {
  return `more than ${(MOST_COUNTED_PAGES * 100).toLocaleString('en-US')}`
}

/** Why the repository's comments could not be listed, and what to do when it is the token's permissions. */
function unlisted(error: unknown): string {
  const status = httpStatusOf(error)
  if (status === 401 || status === 403 || status === 404) {
    return `GitHub refused to list the repository's issue comments (HTTP ${status}): give the workflow permissions: issues: read`
  }
  return `GitHub did not list the repository's issue comments (${status === undefined ? 'no answer in time' : `HTTP ${status}`})`
}

function pick(pull: PullRequestFacts) {
  return { repository: pull.repository, number: pull.number, title: pull.title, url: pull.url }
}

/** The record in one of the action's own comments (its marker, by the token's identity). */
function ownRecord(comment: unknown, me: string): TrackingState | undefined {
  const user = fieldsAt(comment, 'user')
  const author = { login: textOf(user['login']), type: textOf(user['type']) }
  return isAuthor(author, me) ? readMarker(textOf(fieldsAt(comment)['body'])) : undefined
}

/** When this comment, if one of the action's own batch records of this project, was last updated; else 0. */
export function ownBatchRecordAt(comment: unknown, me: string, projectId: string): number {
  const state = ownRecord(comment, me)
  if (!state?.batch || !tracksProject(state, projectId)) return 0
  return Date.parse(textOf(fieldsAt(comment)['updated_at'])) || 1
}

/** The starts of this project's jobs since `since`, but this step's in this run, that one of the records holds. */
function startsIn(
  state: TrackingState,
  wanted: { readonly project: string; readonly since: number; readonly runId: string; readonly step: string }
): number {
  // A record made before steps were recorded may be this step's own.
  const ownStep = (step: string | undefined) => step === undefined || step === wanted.step
  return state.requests.filter(
    (request) =>
      request.kind === 'start' &&
      !(request.run === wanted.runId && ownStep(request.step)) &&
      (request.project === undefined || request.project === wanted.project) &&
      (request.at ?? 0) >= wanted.since
  ).length
}
