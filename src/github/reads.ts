// What a step reads of GitHub before it spends a job, beyond its own issue: the change the event is about, who the
// token acts as, and how many jobs the action started in the repository lately, by its own records. Each is read once,
// only when asked for, within its own deadline. Loaded in a chunk of its own, with Octokit.
import { context } from '@actions/github'
import type { Settings } from '../inputs/settings.ts'
import type { Logger } from '../runner/io.ts'
import type { Transport } from '../transport/transport.ts'
import type { EventChange } from './change.ts'
import { type EventInfo, readEventChange } from './change-reader.ts'
import { createGitHubClient, githubAccess, isAuthor, loginOf } from './client.ts'
import { fieldsAt, listOf, textOf } from './fields.ts'
import { readMarker } from './tracking-record.ts'

export interface GitHubReads {
  /** The change the event is about, with its files when the settings need them. Never throws. */
  change(): Promise<EventChange>
  /** Who the token acts as; undefined when GitHub would not say. Never throws. */
  login(): Promise<string | undefined>
  /**
   * How many jobs of this project the action started in the repository since `since` (milliseconds since the epoch),
   * by the records in its own tracking comments, leaving out those of the workflow run `runId` (a re-run decides about
   * its earlier attempts on its own); undefined when they could not be read. Never throws.
   */
  startsSince(since: number, runId: string): Promise<number | undefined>
}

/** The most comments looked through for records of recent jobs: 10 pages of 100. */
const MOST_COMMENT_PAGES = 10

export function openReads(
  settings: Settings,
  transport: Transport,
  where: { readonly repository: string; readonly deadlineMs: number; readonly log: Logger },
  event: EventInfo = context
): GitHubReads {
  const { log } = where
  const client = () =>
    createGitHubClient(
      transport,
      githubAccess(settings.githubToken, event.apiUrl, transport, (message) => {
        log.debug(message)
      }),
      { deadlineMs: where.deadlineMs, cancellable: true, throttled: true }
    )
  const once = <T>(read: () => Promise<T>): (() => Promise<T>) => {
    let pending: Promise<T> | undefined
    return () => (pending ??= read())
  }
  const login = once(async () => {
    if (settings.githubToken === '') return undefined
    const github = client()
    return github.bounded(loginOf(github)).catch(() => undefined)
  })
  return {
    change: once(() => readEventChange(settings, { transport, ...where }, event)),
    login,
    startsSince: async (since, runId) => {
      const [owner, repo] = where.repository.split('/')
      const me = await login()
      if (!owner || !repo || me === undefined) return undefined
      const github = client()
      const counting = async (): Promise<number> => {
        let starts = 0
        let page = 0
        const pages = github.octokit.paginate.iterator(github.octokit.rest.issues.listCommentsForRepo, {
          owner,
          repo,
          since: new Date(since).toISOString(),
          per_page: 100
        })
        for await (const { data } of pages) {
          for (const comment of listOf(data))
            starts += startsIn(comment, me, { project: settings.projectId, since, runId })
          if (++page >= MOST_COMMENT_PAGES) break
        }
        return starts
      }
      return github.bounded(counting()).catch(() => undefined)
    }
  }
}

/** The starts of this project's jobs since `since`, by other runs, that one of the action's own comments records. */
function startsIn(
  comment: unknown,
  me: string,
  wanted: { readonly project: string; readonly since: number; readonly runId: string }
): number {
  const user = fieldsAt(comment, 'user')
  const author = { login: textOf(user['login']), type: textOf(user['type']) }
  const state = readMarker(textOf(fieldsAt(comment)['body']))
  if (!state || !isAuthor(author, me)) return 0
  return state.requests.filter(
    (request) =>
      request.kind === 'start' &&
      request.run !== wanted.runId &&
      (request.project === undefined || request.project === wanted.project) &&
      (request.at ?? 0) >= wanted.since
  ).length
}
