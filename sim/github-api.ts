// A local stand-in for the parts of GitHub's API the action uses: GraphQL's `viewer` (who the token acts as),
// and an issue's comments: list (paginated), read one, create, update.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type RunningServer, sendJson, startServer } from './admin-api.ts'

export interface StoredComment {
  readonly id: number
  readonly issue: number
  body: string
  /** The author's login, e.g. `github-actions[bot]`. */
  readonly user: string
  readonly createdAt: string
  updatedAt: string
}

export interface FakeGitHub extends RunningServer {
  /** Comments by id, across issues. */
  readonly comments: StoredComment[]
  /** `METHOD path` of every request, in order. */
  readonly calls: string[]
}

/** A changed file, as GitHub's pull request files and compare endpoints list it. */
export interface SimulatedFile {
  readonly filename: string
  readonly status: string
  readonly additions: number
  readonly deletions: number
  /** Left out, as GitHub does, for a binary or very large file. */
  readonly patch?: string
  readonly previous_filename?: string
}

export interface SimulatedCommit {
  readonly sha: string
  readonly message: string
  readonly author: string
}

export interface FakeGitHubOptions {
  readonly owner?: string
  readonly repo?: string
  /** Who the token acts as: GraphQL's `viewer.login`, and the author of the comments it writes. */
  readonly viewer?: string
  /** Comments already on the issues when the run starts. */
  readonly existing?: Pick<StoredComment, 'issue' | 'body' | 'user'>[]
  /** Answer these statuses to the first requests, in turn (e.g. [502] for one transient failure). */
  readonly failFirst?: number[]
  /** Answer every write with this status (e.g. 403 for a token without permission). */
  readonly refuseWrites?: number
  /** Answers a request first when it returns true: for hostile or hanging answers. `call` is `METHOD path`. */
  readonly intercept?: (call: string, req: IncomingMessage, res: ServerResponse) => boolean
  /** The `html_url` given for a comment; GitHub's own form by default. */
  readonly htmlUrl?: (comment: StoredComment) => string
  /** Answers each request (or each `METHOD path` this gives a time for) this long after it arrived, as a GitHub far away does. */
  readonly latencyMs?: number | ((call: string) => number)
  /**
   * Carries out a write, then answers with the status this returns (e.g. 502) instead of the result: GitHub made
   * the comment, but the answer never said so. `write` counts the writes, from 0.
   */
  readonly failAfterWriting?: (call: string, write: number) => number | undefined
  /** Each pull request's changed files, by number. */
  readonly pullFiles?: Readonly<Record<number, readonly SimulatedFile[]>>
  /** Each compare, by `base...head`: its commits (oldest first) and its files. */
  readonly compares?: Readonly<
    Record<string, { readonly commits: readonly SimulatedCommit[]; readonly files: readonly SimulatedFile[] }>
  >
}

/** GitHub refuses a comment longer than this, with this answer. */
const MAX_BODY = 65_536
const TOO_LONG = {
  message: 'Validation Failed',
  errors: [
    {
      resource: 'IssueComment',
      code: 'custom',
      field: 'body',
      message: 'body is too long (maximum is 65536 characters)'
    }
  ]
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>
}

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const owner = options.owner ?? 'acme'
  const repo = options.repo ?? 'docs'
  const viewer = options.viewer ?? 'github-actions[bot]'
  const comments: StoredComment[] = []
  const calls: string[] = []
  let nextId = 1000
  // Timestamps a second apart, in the order the comments were made.
  let clock = Date.parse('2026-11-22T09:00:00Z')
  const now = (): string => new Date((clock += 1000)).toISOString()
  for (const comment of options.existing ?? []) {
    const at = now()
    comments.push({ ...comment, id: nextId++, createdAt: at, updatedAt: at })
  }
  const failures = [...(options.failFirst ?? [])]
  let writes = 0
  const listPath = new RegExp(`^/repos/${owner}/${repo}/issues/(\\d+)/comments$`)
  const updatePath = new RegExp(`^/repos/${owner}/${repo}/issues/comments/(\\d+)$`)
  const server: RunningServer = await startServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const call = `${req.method ?? ''} ${url.pathname}`
    calls.push(call)
    const latency = typeof options.latencyMs === 'function' ? options.latencyMs(call) : options.latencyMs
    if (latency) await new Promise((resolve) => setTimeout(resolve, latency))
    if (options.intercept?.(call, req, res)) return
    const failure = failures.shift()
    if (failure !== undefined) return sendJson(res, failure, { message: 'Server Error' })
    const htmlUrl =
      options.htmlUrl ??
      ((comment: StoredComment) =>
        `https://github.com/${owner}/${repo}/issues/${comment.issue}#issuecomment-${comment.id}`)
    const view = (comment: StoredComment) => ({
      id: comment.id,
      body: comment.body,
      user: { login: comment.user, type: comment.user.endsWith('[bot]') ? 'Bot' : 'User' },
      html_url: htmlUrl(comment),
      created_at: comment.createdAt,
      updated_at: comment.updatedAt
    })

    if (call === 'POST /graphql') {
      const { query } = await readBody(req)
      if (typeof query === 'string' && /viewer\s*{\s*login\s*}/.test(query)) {
        return sendJson(res, 200, { data: { viewer: { login: viewer } } })
      }
      return sendJson(res, 200, { errors: [{ message: 'unknown query' }] })
    }
    const changes = changesAnswer(url, options, server.url)
    if (changes && req.method === 'GET') return sendJson(res, changes.status, changes.body, changes.headers)
    const list = listPath.exec(url.pathname)
    if (list && req.method === 'GET') {
      const issue = Number(list[1])
      const perPage = Number(url.searchParams.get('per_page') ?? 30)
      const page = Number(url.searchParams.get('page') ?? 1)
      const all = comments.filter((comment) => comment.issue === issue)
      const pageItems = all.slice((page - 1) * perPage, page * perPage)
      return sendJson(
        res,
        200,
        pageItems.map(view),
        pageLinks(`${server.url}${url.pathname}`, perPage, page, all.length)
      )
    }
    if (options.refuseWrites !== undefined && req.method !== 'GET') {
      return sendJson(res, options.refuseWrites, {
        message: options.refuseWrites === 403 ? 'Resource not accessible by integration' : 'Not Found',
        documentation_url: 'https://docs.github.com/rest/issues/comments'
      })
    }
    const failAfterWriting = (): number | undefined => options.failAfterWriting?.(call, writes++)
    if (list && req.method === 'POST') {
      const { body } = await readBody(req)
      if (String(body).length > MAX_BODY) return sendJson(res, 422, TOO_LONG)
      const at = now()
      const comment: StoredComment = {
        id: nextId++,
        issue: Number(list[1]),
        body: String(body),
        user: viewer,
        createdAt: at,
        updatedAt: at
      }
      comments.push(comment)
      const status = failAfterWriting()
      return status === undefined
        ? sendJson(res, 201, view(comment))
        : sendJson(res, status, { message: 'Server Error' })
    }
    const update = updatePath.exec(url.pathname)
    if (update && req.method === 'GET') {
      const comment = comments.find((candidate) => candidate.id === Number(update[1]))
      return comment ? sendJson(res, 200, view(comment)) : sendJson(res, 404, { message: 'Not Found' })
    }
    if (update && req.method === 'PATCH') {
      // A token with admin rights can edit anyone's comment, as on GitHub: the action must not rely on a refusal.
      const comment = comments.find((candidate) => candidate.id === Number(update[1]))
      if (!comment) return sendJson(res, 404, { message: 'Not Found' })
      const body = String((await readBody(req))['body'])
      if (body.length > MAX_BODY) return sendJson(res, 422, TOO_LONG)
      comment.body = body
      comment.updatedAt = now()
      const status = failAfterWriting()
      return status === undefined
        ? sendJson(res, 200, view(comment))
        : sendJson(res, status, { message: 'Server Error' })
    }
    return sendJson(res, 404, { message: 'Not Found' })
  })
  return { ...server, comments, calls }
}

/** The Link header GitHub sends with a page of a list: `first`, `prev`, `next` and `last`, as each applies. */
function pageLinks(base: string, perPage: number, page: number, total: number): Record<string, string> {
  const last = Math.max(1, Math.ceil(total / perPage))
  const link = (n: number, rel: string) => `<${base}?per_page=${perPage}&page=${n}>; rel="${rel}"`
  const links = [
    ...(page > 1 ? [link(page - 1, 'prev')] : []),
    ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
    ...(page > 1 ? [link(1, 'first')] : [])
  ]
  return links.length > 0 ? { link: links.join(', ') } : {}
}

/** A page of a list: the items, and GitHub's Link header for the others. */
function paged<T>(items: readonly T[], url: URL, base: string) {
  const perPage = Number(url.searchParams.get('per_page') ?? 30)
  const page = Number(url.searchParams.get('page') ?? 1)
  return {
    items: items.slice((page - 1) * perPage, page * perPage),
    page,
    headers: pageLinks(base, perPage, page, items.length)
  }
}

/** A pull request's files, or a compare, when the request asks for one the options hold. */
function changesAnswer(url: URL, options: FakeGitHubOptions, serverUrl: string) {
  const owner = options.owner ?? 'acme'
  const repo = options.repo ?? 'docs'
  const base = `${serverUrl}${url.pathname}`
  const files = new RegExp(`^/repos/${owner}/${repo}/pulls/(\\d+)/files$`).exec(url.pathname)
  if (files) {
    const listed = options.pullFiles?.[Number(files[1])]
    if (!listed) return { status: 404, body: { message: 'Not Found' }, headers: {} }
    const { items, headers } = paged(listed, url, base)
    return { status: 200, body: items, headers }
  }
  const compare = new RegExp(`^/repos/${owner}/${repo}/compare/(.+)$`).exec(url.pathname)
  if (!compare) return undefined
  const found = options.compares?.[decodeURIComponent(compare[1] ?? '')]
  if (!found) return { status: 404, body: { message: 'Not Found' }, headers: {} }
  const { items, page, headers } = paged(found.commits, url, base)
  const commits = items.map((commit) => ({
    sha: commit.sha,
    commit: { message: commit.message, author: { name: commit.author } },
    author: { login: commit.author }
  }))
  // As GitHub does, the files come with the first page only.
  const body = { total_commits: found.commits.length, commits, ...(page === 1 ? { files: found.files } : {}) }
  return { status: 200, body, headers }
}
