// The pull requests merged into a branch, as `mode: batch` reads them: GitHub's listing of the closed ones (it lists
// them by when they were last updated, not merged, so a listing cut short may leave out any of them), and the one a
// commit merged, asked of GitHub commit by commit.
import type { Redact } from '../text/redact.ts'
import { redactedDeep } from '../text/redact.ts'
import type { MergedPull } from './change.ts'
import { mergedPull } from './change-reader.ts'
import type { GitHubClient } from './octokit.ts'
import { fieldsOf, listOf, textOf } from './fields.ts'

/** Where the pull requests are: the repository, and what to redact from what GitHub says. */
export interface PullsAt {
  readonly owner: string
  readonly repo: string
  readonly redact: Redact
}

/** The pull requests listed, and whether they are every one merged since: the listing was not cut short. */
export interface MergedListing {
  readonly pulls: readonly MergedPull[]
  readonly complete: boolean
}

/** The most pages of 100 the listing reads: ten (a thousand pull requests). */
const MOST_PAGES = 10

/** The pull requests merged into the branch since `since`, as far as the listing goes (newest updated first). */
export async function listMerged(
  client: GitHubClient,
  at: PullsAt,
  branch: string,
  since: number
): Promise<MergedListing> {
  const { owner, repo } = at
  const found: MergedPull[] = []
  const pages = client.octokit.paginate.iterator(client.octokit.rest.pulls.list, {
    owner,
    repo,
    state: 'closed',
    base: branch,
    sort: 'updated',
    direction: 'desc',
    per_page: 100
  })
  let page = 0
  for await (const { data } of pages) {
    const listed = listOf(data)
    for (const entry of listed) {
      const pull = mergedPull(redactedDeep(entry, at.redact), `${owner}/${repo}`)
      if (pull && pull.mergedAt >= since) found.push(pull)
    }
    const oldest = Date.parse(textOf(fieldsOf(listed.at(-1))['updated_at']))
    // Updated before `since`, so merged before it too: the rest are older still.
    if (!(oldest >= since)) return { pulls: found, complete: true }
    if (++page >= MOST_PAGES) return { pulls: found, complete: false }
  }
  return { pulls: found, complete: true }
}

/** The pull request this commit merged into the branch (its merge commit), if one did. */
export async function mergedBy(
  client: GitHubClient,
  at: PullsAt,
  sha: string,
  branch: string
): Promise<MergedPull | undefined> {
  const { owner, repo } = at
  const { data } = await client.octokit.rest.repos.listPullRequestsAssociatedWithCommit({
    owner,
    repo,
    commit_sha: sha,
    per_page: 100
  })
  return listOf(data)
    .filter((entry) => textOf(fieldsOf(fieldsOf(entry)['base'])['ref']) === branch)
    .map((entry) => mergedPull(redactedDeep(entry, at.redact), `${owner}/${repo}`))
    .find((pull) => pull?.mergeCommit === sha.toLowerCase())
}
