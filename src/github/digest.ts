// The issue `mode: batch` keeps its records on: of the issues labelled `digest-label`, the one that holds the action's
// own batch records; else the issue that holds them, labelled again; else the lowest open one labelled; else a new one.
import type { Logger } from '../runner/io.ts'
import { forLog } from '../text/untrusted.ts'
import { fieldsOf, listOf, positiveIntegerOf, textOf } from './fields.ts'
import type { GitHubClient } from './octokit.ts'
import { type GitHubReads, ownBatchRecordAt } from './reads.ts'
import type { GitHubSession } from './session.ts'

/** The most pages of 100 a listing reads, and the most labelled issues looked through. */
const MOST_PAGES = 10

export class DigestIssue {
  readonly #session: GitHubSession
  /** The reads, on the client the batch's other reads of the history use. */
  readonly #client: GitHubClient
  readonly #log: Logger
  readonly #projectId: string
  readonly #owner: string
  readonly #repo: string

  constructor(session: GitHubSession, reads: GitHubClient) {
    this.#session = session
    this.#client = reads
    this.#log = session.log
    this.#projectId = session.settings.projectId
    ;({ owner: this.#owner = '', name: this.#repo = '' } = session.repo ?? {})
  }

  /**
   * The digest issue: of the issues labelled `label`, open or closed, the one that holds the action's own batch records
   * of this project (written by the token's identity: anyone else's are no records); else the issue that holds them
   * among the repository's latest comments, labelled again; else the lowest open one labelled; else a new one.
   */
  async find(label: string, reads: Pick<GitHubReads, 'latestBatchRecord'>): Promise<number> {
    const labelled = await this.#labelled(label)
    const me = await this.#session.login()
    if (me === undefined) throw new Error('GitHub did not say who the token acts as, to find its batch records')
    const kept = await this.#holding(labelled, me)
    const others = labelled.filter((issue) => issue.number !== kept?.number).map((issue) => `#${issue.number}`)
    if (kept !== undefined) {
      if (!kept.open)
        this.#log.info(`The digest issue #${kept.number} is closed: it keeps the batches' records, which go on there.`)
      if (others.length > 0)
        this.#log.info(
          `Also labelled "${forLog(label, 80)}", with no batch record of this action: ${others.join(', ')}; left alone.`
        )
      return kept.number
    }
    const found = await reads.latestBatchRecord()
    if (found.issue !== undefined) {
      await this.#labelAgain(found.issue, label)
      return found.issue
    }
    if (!found.complete) {
      this.#log.warning(
        `No batch record of this action was found on the issues labelled "${forLog(label, 80)}", nor in the repository's ${(MOST_PAGES * 100).toLocaleString('en-US')} most recently updated comments: this batch starts at batch-since. If an earlier digest issue lost its label, label it "${forLog(label, 80)}" again.`
      )
    }
    return labelled.find((issue) => issue.open)?.number ?? (await this.#openDigest(label))
  }

  /** The issues labelled `label`, open or closed, lowest number first. */
  async #labelled(label: string): Promise<{ readonly number: number; readonly open: boolean }[]> {
    const found: { number: number; open: boolean }[] = []
    const params = { owner: this.#owner, repo: this.#repo, labels: label, state: 'all' as const, per_page: 100 }
    let page = 0
    for await (const { data } of this.#client.octokit.paginate.iterator(
      this.#client.octokit.rest.issues.listForRepo,
      params
    )) {
      for (const issue of listOf(data)) {
        const number = positiveIntegerOf(fieldsOf(issue)['number'])
        if (number !== undefined) found.push({ number, open: textOf(fieldsOf(issue)['state']) !== 'closed' })
      }
      if (++page >= MOST_PAGES) break
    }
    return found.sort((a, b) => a.number - b.number)
  }

  /** Of these issues, the one whose newest batch record of the action's own is the latest; undefined if none has one. */
  async #holding<T extends { readonly number: number }>(issues: readonly T[], me: string): Promise<T | undefined> {
    let kept: { issue: T; at: number } | undefined
    for (const issue of issues.slice(0, MOST_PAGES)) {
      const params = { owner: this.#owner, repo: this.#repo, issue_number: issue.number, per_page: 100 }
      let [page, at] = [0, 0]
      for await (const { data } of this.#client.octokit.paginate.iterator(
        this.#client.octokit.rest.issues.listComments,
        params
      )) {
        for (const comment of listOf(data)) at = Math.max(at, ownBatchRecordAt(comment, me, this.#projectId))
        // With one issue to choose from, one record is enough; with several, the newest one tells.
        if ((at > 0 && issues.length === 1) || ++page >= MOST_PAGES) break
      }
      if (at > (kept?.at ?? 0)) kept = { issue, at }
    }
    return kept?.issue
  }

  /** The issue that keeps the batches' records had lost its label: labelled again, so that the next run finds it. */
  async #labelAgain(number: number, label: string): Promise<void> {
    const writes = this.#session.client({ cancellable: false })
    await writes.bounded(
      writes.octokit.rest.issues.addLabels({
        owner: this.#owner,
        repo: this.#repo,
        issue_number: number,
        labels: [label]
      })
    )
    this.#log.warning(
      `Issue #${number} keeps the batches' records but was no longer labelled "${forLog(label, 80)}": labelled again, and used as the digest issue.`
    )
  }

  /** A new digest issue, labelled `label`: its number. */
  async #openDigest(label: string): Promise<number> {
    const writes = this.#session.client({ cancellable: false })
    const created = await writes.bounded(
      writes.octokit.rest.issues.create({
        owner: this.#owner,
        repo: this.#repo,
        title: 'Docs digest',
        body: DIGEST_BODY,
        labels: [label],
        // Never twice: a 5xx may come after GitHub made the issue, which the next run finds by its label.
        request: { retries: 0 }
      })
    )
    const number = positiveIntegerOf(fieldsOf(created.data)['number'])
    if (number === undefined) throw new Error('GitHub gave the new digest issue no number')
    return number
  }
}

const DIGEST_BODY =
  'Each comment below is one batch of `mode: batch`: the pull requests it covered, its agent job, and the docs pull ' +
  'request it opened. The comments are also the record the next batch starts from: keep them.'
