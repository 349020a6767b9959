// A local stand-in for the parts of GitHub's API the action uses, across the repositories a test names (the
// workflow's own, `owner/repo`, and others such as a docs repository): GraphQL's `viewer` (who the token acts as); an
// issue's comments (list, paginated; read one; create; update) and the repository's comments updated since a time; pull
// requests (read, close), their files, and compares between two commits; labels; check runs (made, edited, listed for
// a commit); who may do what (collaborator permission) and reactions on comments.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { markerOf, type TrackingState } from '../src/github/tracking-record.ts'
import { type RunningServer, sendJson, startServer } from './admin-api.ts'
import {
  commitView,
  compareWithHead,
  mergedView,
  type SimulatedHistory,
  type SimulatedIssue
} from './github-history.ts'
import { permissionAnswer, type Reaction, react } from './github-people.ts'
import { edited, lifeView, listPulls, merge, type PullLife, pullListing } from './github-pulls.ts'
import { type GroundingWorld, groundingRoute, type SimulatedReview } from './github-grounding.ts'

export interface StoredComment {
  readonly id: number
  /** `owner/name`. */
  readonly repo: string
  readonly issue: number
  body: string
  /** The author's login, e.g. `github-actions[bot]`. */
  readonly user: string
  readonly createdAt: string
  updatedAt: string
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

/** A compare between two commits: `ahead` when the head descends from the base, `diverged` after a force-push. */
export interface SimulatedCompare {
  readonly status?: 'ahead' | 'behind' | 'diverged' | 'identical'
  readonly commits: readonly SimulatedCommit[]
  readonly files: readonly SimulatedFile[]
}

/** A pull request, as the tests set it up and as the action's writes leave it. */
export interface SimulatedPull extends PullLife {
  readonly number: number
  readonly title?: string
  readonly user?: string
  state: 'open' | 'closed'
  merged?: boolean
  labels: string[]
  readonly files?: readonly SimulatedFile[]
  readonly headSha?: string
  /** The commit it would merge into. */
  readonly baseSha?: string
  /** Its branch was deleted: GitHub then refuses to reopen it. */
  readonly branchDeleted?: boolean
}

/**
 * Docs pull requests the Mintlify agent opened, dated from `now`: each made by `pull(number, days)` opened `days` ago,
 * last updated a day ago, with one commit of the agent's; `more` sets the rest.
 */
export function agentDocsPulls(now: number) {
  const ago = (days: number): string => new Date(now - days * 86_400_000).toISOString()
  return (number: number, days: number, more: Partial<SimulatedPull> = {}): SimulatedPull => ({
    number,
    title: `Docs for change ${number}`,
    user: 'mintlify[bot]',
    state: 'open',
    labels: [],
    headSha: `${number}`.padStart(40, 'a'),
    createdAt: ago(days),
    updatedAt: ago(1),
    commits: [{ sha: 'c'.repeat(40), author: 'mintlify[bot]', email: 'agent@mintlify.com' }],
    ...more
  })
}

/** What a record of `agentRecords` holds beyond its defaults. */
export type RecordMore = Partial<TrackingState> & {
  /** A pair's: the head of the code pull request its prompt described. */
  readonly head?: string
  /** Who wrote it: `github-actions[bot]` (the action's identity) by default. */
  readonly user?: string
  /** When its job was started, in days before `now`: 30 by default. */
  readonly startedDays?: number
}

/**
 * The action's records in a sweep's world, dated from `now`: `record(issue, docs)` is the tracking comment, on issue
 * or pull request `issue` of the workflow's repository, of the job that opened acme/docs#`docs`.
 */
export function agentRecords(now: number, project: string) {
  return (issue: number, docs: number, more: RecordMore = {}) => {
    const { head, user = 'github-actions[bot]', startedDays = 30, ...rest } = more
    const start = { kind: 'start', run: '1', attempt: 1, prompt: 'p', line: 'Docs', project } as const
    const state: TrackingState = {
      job: `job-${docs}`,
      requests: [{ ...start, at: now - startedDays * 86_400_000, ...(head ? { head } : {}) }],
      pr: `https://github.com/acme/docs/pull/${docs}`,
      ...rest
    }
    const updatedAt = new Date(now - (startedDays - 1) * 86_400_000).toISOString()
    return { issue, user, body: `${markerOf(state)}\nTracking.`, updatedAt }
  }
}

export interface CheckRun {
  readonly id: number
  readonly repo: string
  readonly name: string
  readonly headSha: string
  /** The id the action gave it (`external_id`). */
  readonly externalId: string | undefined
  /** Every status and conclusion it went through, in order: `in_progress`, then `completed/success`, say. */
  readonly history: string[]
  status: string
  conclusion: string | undefined
  title: string
  summary: string
  detailsUrl: string | undefined
}

export interface FakeGitHub extends RunningServer {
  /** Comments by id, across issues and repositories. */
  readonly comments: StoredComment[]
  /** Every body the action wrote to a comment, made or edited, in order: each version a reader could have seen. */
  readonly written: { readonly id: number; readonly body: string }[]
  /** `METHOD path` of every request, in order. */
  readonly calls: string[]
  /** Pull requests by `owner/name`, as the action's writes left them. */
  readonly pulls: Map<string, SimulatedPull[]>
  readonly checkRuns: CheckRun[]
  /** The workflow repository's issues: those the test gave, and those the action opened. */
  readonly issues: SimulatedIssue[]
  /** The workflow repository's history, when the test gave one: rewrite its commits to simulate a force-push. */
  readonly history: SimulatedHistory | undefined
  /** The reactions the action left on comments, in order. */
  readonly reactions: Reaction[]
  /** The reviews on pull requests, as the action's writes left them. */
  readonly reviews: SimulatedReview[]
}

export interface FakeGitHubOptions {
  readonly owner?: string
  readonly repo?: string
  /** Who the token acts as: GraphQL's `viewer.login`, and the author of the comments it writes unless `writesAs`. */
  readonly viewer?: string
  /** The author of what the token writes, when not `viewer`: `name[bot]` for an app GraphQL names `name`. */
  readonly writesAs?: string
  /** Who other tokens act as, by token (a docs-token's app, say): GraphQL's `viewer.login` for each. */
  readonly viewers?: Readonly<Record<string, string>>
  /** Comments already on the issues when the run starts (the workflow's repository unless `repo` says); `updatedAt` a time of the test's choosing. */
  readonly existing?: (Pick<StoredComment, 'issue' | 'body' | 'user'> & {
    readonly repo?: string
    readonly updatedAt?: string
  })[]
  /** Answer these statuses to the first requests, in turn (e.g. [502] for one transient failure). */
  readonly failFirst?: number[]
  /** Answer every write with this status (e.g. 403 for a token without permission). */
  readonly refuseWrites?: number
  /** Answer every check run write with this status (e.g. 403: a token without `checks: write`). */
  readonly refuseChecks?: number
  /** Answers a request first when it returns true: for hostile or hanging answers. `call` is `METHOD path`. */
  readonly intercept?: (call: string, req: IncomingMessage, res: ServerResponse) => boolean
  /** The `html_url` given for a comment; GitHub's own form by default. */
  readonly htmlUrl?: (comment: StoredComment) => string
  /** Answers each request (or each `METHOD path` this gives a time for) this long after it arrived, as a GitHub far away does. */
  readonly latencyMs?: number | ((call: string) => number)
  /** Carries out and answers a request only once the promise this gives for it resolves: GitHub slow until then. */
  readonly holdUntil?: (call: string) => Promise<unknown> | undefined
  /**
   * Carries out a write, then answers with the status this returns (e.g. 502) instead of the result: GitHub made
   * the comment, but the answer never said so. `write` counts the writes, from 0.
   */
  readonly failAfterWriting?: (call: string, write: number) => number | undefined
  /** The workflow repository's pull requests' changed files, by number. */
  readonly pullFiles?: Readonly<Record<number, readonly SimulatedFile[]>>
  /** Pull requests of any repository, by `owner/name` (a docs repository's, say). */
  readonly pulls?: Readonly<Record<string, readonly SimulatedPull[]>>
  /** Each compare of the workflow's repository, by `base...head`. */
  readonly compares?: Readonly<Record<string, SimulatedCompare>>
  /** The workflow repository's default branch, its commits and the pull requests merged into it. */
  readonly history?: SimulatedHistory
  /** The workflow repository's issues when the run starts. */
  readonly issues?: readonly SimulatedIssue[]
  /** Answers these reads (`METHOD path`, query left out) with this status: a read that fails for one pull request. */
  readonly failReads?: Readonly<Record<string, number>>
  /** Each login's role on the workflow's repository (`admin`, `maintain`, `write`, `triage`, `read`); `read` if not named. */
  readonly roles?: Readonly<Record<string, string>>
  /** The time of each write (milliseconds since the epoch): a benchmark's simulated clock. A second apart by default. */
  readonly now?: () => number
  /** Gzipped tarballs by `owner/name@ref` (see tarball.ts). */
  readonly tarballs?: Readonly<Record<string, Buffer>>
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

/** The state of every repository the test named, and the server's own counters. */
interface World {
  readonly options: FakeGitHubOptions
  readonly home: string
  readonly viewer: string
  /** The author of what the token writes. */
  readonly writer: string
  readonly comments: StoredComment[]
  readonly written: FakeGitHub['written']
  readonly pulls: Map<string, SimulatedPull[]>
  readonly checkRuns: CheckRun[]
  readonly issues: SimulatedIssue[]
  readonly history: SimulatedHistory | undefined
  readonly reactions: Reaction[]
  readonly grounding: GroundingWorld
  nextId: number
  writes: number
  /** Timestamps a second apart, in the order things were made. */
  clock: number
}

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const home = `${options.owner ?? 'acme'}/${options.repo ?? 'docs'}`
  const world: World = {
    options,
    home,
    viewer: options.viewer ?? 'github-actions[bot]',
    writer: options.writesAs ?? options.viewer ?? 'github-actions[bot]',
    comments: [],
    written: [],
    pulls: new Map(
      Object.entries(options.pulls ?? {}).map(([repo, pulls]) => [
        repo,
        pulls.map((pull) => ({ ...pull, labels: [...pull.labels] }))
      ])
    ),
    checkRuns: [],
    issues: (options.issues ?? []).map((issue) => ({ ...issue, labels: [...issue.labels] })),
    history: options.history,
    reactions: [],
    grounding: {
      tarballs: options.tarballs ?? {},
      reviews: [],
      diffPaths: (repo, number) => pullOf(world, repo, number)?.files?.map((file) => file.filename),
      nextId: () => world.nextId++
    },
    nextId: 1000,
    writes: 0,
    clock: Date.parse('2026-11-22T09:00:00Z')
  }
  for (const comment of options.existing ?? []) {
    const at = comment.updatedAt ?? stamp(world)
    world.comments.push({ ...comment, repo: comment.repo ?? home, id: world.nextId++, createdAt: at, updatedAt: at })
  }
  const calls: string[] = []
  const failures = [...(options.failFirst ?? [])]
  const server: RunningServer = await startServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const call = `${req.method ?? ''} ${url.pathname}`
    calls.push(call)
    const latency = typeof options.latencyMs === 'function' ? options.latencyMs(call) : options.latencyMs
    if (latency) await new Promise((resolve) => setTimeout(resolve, latency))
    await options.holdUntil?.(call)
    if (options.intercept?.(call, req, res)) return
    const failure = failures.shift()
    if (failure !== undefined) return sendJson(res, failure, { message: 'Server Error' })
    await route(world, { req, res, url, call, base: server.url })
  })
  return {
    ...server,
    comments: world.comments,
    written: world.written,
    calls,
    pulls: world.pulls,
    checkRuns: world.checkRuns,
    issues: world.issues,
    history: world.history,
    reactions: world.reactions,
    reviews: world.grounding.reviews
  }
}

function stamp(world: World): string {
  if (world.options.now) return new Date(world.options.now()).toISOString()
  return new Date((world.clock += 1000)).toISOString()
}

interface Request {
  readonly req: IncomingMessage
  readonly res: ServerResponse
  readonly url: URL
  readonly call: string
  /** The server's own address, for the links it gives. */
  readonly base: string
}

const REPO = '/repos/([^/]+/[^/]+)'

async function route(world: World, request: Request): Promise<void> {
  const { req, res, url, call } = request
  if (call === 'POST /graphql') {
    const { query } = await readBody(req)
    if (typeof query === 'string' && /viewer\s*{\s*login\s*}/.test(query)) {
      const token = /\S+$/.exec(req.headers.authorization ?? '')?.[0] ?? ''
      return sendJson(res, 200, { data: { viewer: { login: world.options.viewers?.[token] ?? world.viewer } } })
    }
    return sendJson(res, 200, { errors: [{ message: 'unknown query' }] })
  }
  const path = new RegExp(`^${REPO}(/.*)?$`).exec(url.pathname)
  const repo = path?.[1] ?? ''
  if (!path || !knows(world, repo)) return sendJson(res, 404, { message: 'Not Found' })
  const rest = path[2] ?? ''
  const failed = world.options.failReads?.[`${req.method ?? ''} ${url.pathname}`]
  if (failed !== undefined) return sendJson(res, failed, { message: 'Server Error' })
  if (await groundingRoute(world.grounding, { req, res, repo, rest }, world.writer)) return
  if (req.method === 'GET') {
    if (readHistory(world, request, repo, rest) === undefined) read(world, request, repo, rest)
    return
  }
  const refused = rest.startsWith('/check-runs') ? world.options.refuseChecks : world.options.refuseWrites
  if (refused !== undefined) {
    return sendJson(res, refused, {
      message: refused === 403 ? 'Resource not accessible by integration' : 'Not Found',
      documentation_url: 'https://docs.github.com/rest'
    })
  }
  return write(world, request, repo, rest)
}

/** The repositories the test named: the workflow's own, and those it gave pull requests. */
function knows(world: World, repo: string): boolean {
  return repo === world.home || world.pulls.has(repo)
}

function read(world: World, request: Request, repo: string, rest: string): void {
  const { res, url } = request
  const base = `${request.base}${url.pathname}`
  if (rest === '/issues/comments') {
    // Every issue's comments, those updated since `since`, oldest first (by `sort` and `direction` when given).
    const since = Date.parse(url.searchParams.get('since') ?? '') || 0
    const recent = world.comments.filter((comment) => comment.repo === repo && Date.parse(comment.updatedAt) >= since)
    if (url.searchParams.get('sort') === 'updated') {
      const sign = url.searchParams.get('direction') === 'asc' ? 1 : -1
      recent.sort((a, b) => sign * (Date.parse(a.updatedAt) - Date.parse(b.updatedAt) || a.id - b.id))
    }
    const { items, headers } = paged(recent, url, `${base}${url.search}`)
    return sendJson(
      res,
      200,
      items.map((comment) => commentView(world, comment)),
      headers
    )
  }
  const issueComments = /^\/issues\/(\d+)\/comments$/.exec(rest)
  if (issueComments) {
    const issue = Number(issueComments[1])
    const all = world.comments.filter((comment) => comment.repo === repo && comment.issue === issue)
    const { items, headers } = paged(all, url, base)
    return sendJson(
      res,
      200,
      items.map((comment) => commentView(world, comment)),
      headers
    )
  }
  const collaborator = /^\/collaborators\/([^/]+)\/permission$/.exec(rest)
  if (collaborator && repo === world.home) {
    const answer = permissionAnswer(world.options.roles ?? {}, decodeURIComponent(collaborator[1] ?? ''))
    return sendJson(res, answer.status, answer.body)
  }
  const files = /^\/pulls\/(\d+)\/files$/.exec(rest)
  if (files) {
    const number = Number(files[1])
    const listed = repo === world.home ? world.options.pullFiles?.[number] : pullOf(world, repo, number)?.files
    if (!listed) return sendJson(res, 404, { message: 'Not Found' })
    // GitHub lists 3,000 files of a pull request at most.
    const { items, headers } = paged(listed.slice(0, 3000), url, base)
    return sendJson(res, 200, items, headers)
  }
  const one = /^\/issues\/comments\/(\d+)$/.exec(rest)
  if (one) {
    const comment = world.comments.find((candidate) => candidate.repo === repo && candidate.id === Number(one[1]))
    return comment ? sendJson(res, 200, commentView(world, comment)) : sendJson(res, 404, { message: 'Not Found' })
  }
  const pull = /^\/pulls\/(\d+)$/.exec(rest)
  if (pull) {
    const found = pullOf(world, repo, Number(pull[1]))
    return found ? sendJson(res, 200, pullView(repo, found)) : sendJson(res, 404, { message: 'Not Found' })
  }
  const checks = /^\/commits\/([^/]+)\/check-runs$/.exec(rest)
  if (checks) {
    // A commit's check runs, by `check_name` when given.
    const name = url.searchParams.get('check_name')
    const runs = world.checkRuns.filter(
      (run) => run.repo === repo && run.headSha === checks[1] && (name === null || run.name === name)
    )
    return sendJson(res, 200, { total_count: runs.length, check_runs: runs.map(checkView) })
  }
  const compare = /^\/compare\/(.+)$/.exec(rest)
  if (compare) return sendCompare(world, request, decodeURIComponent(compare[1] ?? ''))
  return readPullLives(world, request, repo, rest)
}

/** The listings of pull requests and of what is on them, as a sweep reads them. */
function readPullLives(world: World, request: Request, repo: string, rest: string): void {
  const { res, url } = request
  const pulls = world.pulls.get(repo) ?? []
  const base = `${request.base}${url.pathname}${url.search}`
  if (rest === '/pulls') {
    const { items, headers } = paged(listPulls(pulls, url), url, base)
    const listed = items.map((pull) => {
      const { mergeable: _m, mergeable_state: _s, ...view } = pullView(repo, pull)
      return view
    })
    return sendJson(res, 200, listed, headers)
  }
  const listing = pullListing(pulls, rest)
  if (!listing) return sendJson(res, 404, { message: 'Not Found' })
  const { items, headers } = paged(listing.items, url, base)
  return sendJson(res, 200, listing.wrap ? listing.wrap(items) : items, headers)
}

/** The reads of a repository's history, when the test gave one: undefined for any other read. */
function readHistory(world: World, request: Request, repo: string, rest: string): true | undefined {
  const { res, url } = request
  const history = world.history
  if (repo !== world.home) return undefined
  const base = `${request.base}${url.pathname}${url.search}`
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}): true => {
    sendJson(res, status, body, headers)
    return true
  }
  if (rest === '') return answer(200, { full_name: repo, default_branch: history?.branch ?? 'main' })
  if (rest === '/issues') {
    const labels = (url.searchParams.get('labels') ?? '').split(',').filter((label) => label !== '')
    const state = url.searchParams.get('state') ?? 'open'
    const found = world.issues.filter(
      (issue) => (state === 'all' || issue.state === state) && labels.every((label) => issue.labels.includes(label))
    )
    const { items, headers } = paged(found, url, base)
    return answer(
      200,
      items.map((issue) => ({ ...issue, labels: issue.labels.map((name) => ({ name })) })),
      headers
    )
  }
  if (!history) return undefined
  const branch = /^\/branches\/(.+)$/.exec(rest)
  if (branch) {
    const head = history.commits.at(-1)
    if (decodeURIComponent(branch[1] ?? '') !== history.branch || !head)
      return answer(404, { message: 'Branch not found' })
    return answer(200, { name: history.branch, commit: commitView(head) })
  }
  if (rest === '/commits') {
    const since = Date.parse(url.searchParams.get('since') ?? '') || 0
    const newestFirst = history.commits.filter((commit) => Date.parse(commit.date) >= since).reverse()
    const { items, headers } = paged(newestFirst, url, base)
    return answer(200, items.map(commitView), headers)
  }
  const byCommit = /^\/commits\/([0-9a-f]+)\/pulls$/.exec(rest)
  if (byCommit) {
    // The pull requests a commit belongs to: here, the one it merged.
    const merged = history.merged.filter((pull) => pull.mergeCommit === byCommit[1])
    return answer(
      200,
      merged.map((pull) => mergedView(repo, pull, history.branch))
    )
  }
  if (rest === '/pulls' && url.searchParams.get('state') === 'closed') {
    const newestFirst = [...history.merged].sort((a, b) => Date.parse(b.mergedAt) - Date.parse(a.mergedAt))
    const { items, headers } = paged(newestFirst, url, base)
    return answer(
      200,
      items.map((pull) => mergedView(repo, pull, history.branch)),
      headers
    )
  }
  const files = /^\/pulls\/(\d+)\/files$/.exec(rest)
  const pull = files ? history.merged.find((merged) => merged.number === Number(files[1])) : undefined
  if (pull) {
    const { items, headers } = paged(pull.files, url, base)
    return answer(200, items, headers)
  }
  const compare = /^\/compare\/(.+)\.\.\.(.+)$/.exec(rest)
  if (compare && compare[2] === history.branch && !world.options.compares?.[`${compare[1]}...${compare[2]}`]) {
    const from = decodeURIComponent(compare[1] ?? '')
    if (history.collected?.includes(from)) return answer(404, { message: 'Not Found' })
    const { status, commits } = compareWithHead(history, from)
    const { items, page, headers } = paged(commits, url, base)
    const files = page === 1 ? [] : undefined
    return answer(
      200,
      { status, total_commits: commits.length, commits: items.map(commitView), ...(files ? { files } : {}) },
      headers
    )
  }
  return undefined
}

async function write(world: World, request: Request, repo: string, rest: string): Promise<void> {
  const { req, res, call } = request
  const done = (status: number, body: unknown): void => {
    const failed = world.options.failAfterWriting?.(call, world.writes++)
    if (failed === undefined) sendJson(res, status, body)
    else sendJson(res, failed, { message: 'Server Error' })
  }
  const body = await readBody(req)
  if (rest === '/issues' && req.method === 'POST' && repo === world.home) {
    const labels = Array.isArray(body['labels']) ? body['labels'].map(String) : []
    const issue: SimulatedIssue = { number: world.nextId++, title: String(body['title']), labels, state: 'open' }
    world.issues.push(issue)
    return done(201, { ...issue, labels: labels.map((name) => ({ name })) })
  }
  const issueComments = /^\/issues\/(\d+)\/comments$/.exec(rest)
  if (issueComments && req.method === 'POST') {
    if (String(body['body']).length > MAX_BODY) return sendJson(res, 422, TOO_LONG)
    const at = stamp(world)
    const comment: StoredComment = {
      id: world.nextId++,
      repo,
      issue: Number(issueComments[1]),
      body: String(body['body']),
      user: world.writer,
      createdAt: at,
      updatedAt: at
    }
    world.comments.push(comment)
    world.written.push({ id: comment.id, body: comment.body })
    return done(201, commentView(world, comment))
  }
  const reacted = /^\/(issues|pulls)\/comments\/(\d+)\/reactions$/.exec(rest)
  if (reacted && req.method === 'POST') {
    const wanted = { commentId: Number(reacted[2]), review: reacted[1] === 'pulls', content: String(body['content']) }
    const answer = react(world.reactions, { ...wanted, user: world.writer })
    return done(answer.status, answer.body)
  }
  const update = /^\/issues\/comments\/(\d+)$/.exec(rest)
  if (update && req.method === 'PATCH') {
    // A token with admin rights can edit anyone's comment, as on GitHub: the action must not rely on a refusal.
    const comment = world.comments.find((candidate) => candidate.repo === repo && candidate.id === Number(update[1]))
    if (!comment) return sendJson(res, 404, { message: 'Not Found' })
    if (String(body['body']).length > MAX_BODY) return sendJson(res, 422, TOO_LONG)
    comment.body = String(body['body'])
    comment.updatedAt = stamp(world)
    world.written.push({ id: comment.id, body: comment.body })
    return done(200, commentView(world, comment))
  }
  return writePullsAndChecks(world, request, repo, rest, body, done)
}

function writePullsAndChecks(
  world: World,
  request: Request,
  repo: string,
  rest: string,
  body: Record<string, unknown>,
  done: (status: number, body: unknown) => void
): void {
  const { req, res } = request
  const labels = /^\/issues\/(\d+)\/labels(?:\/(.+))?$/.exec(rest)
  const number = Number(labels?.[1])
  const labelled = labels
    ? (pullOf(world, repo, number) ??
      (repo === world.home ? world.issues.find((issue) => issue.number === number) : undefined))
    : undefined
  if (labels && labelled && req.method === 'POST') {
    for (const name of Array.isArray(body['labels']) ? body['labels'] : []) {
      if (!labelled.labels.includes(String(name))) labelled.labels.push(String(name))
    }
    return done(
      200,
      labelled.labels.map((name) => ({ name }))
    )
  }
  if (labels && labelled && req.method === 'DELETE') {
    const name = decodeURIComponent(labels[2] ?? '')
    if (!labelled.labels.includes(name)) return sendJson(res, 404, { message: 'Label does not exist' })
    labelled.labels = labelled.labels.filter((label) => label !== name)
    return done(
      200,
      labelled.labels.map((label) => ({ name: label }))
    )
  }
  const pull = /^\/pulls\/(\d+)$/.exec(rest)
  const found = pull ? pullOf(world, repo, Number(pull[1])) : undefined
  if (found && req.method === 'PATCH') {
    if (body['state'] === 'open' && found.state === 'closed' && (found.branchDeleted === true || found.merged)) {
      return sendJson(res, 422, { message: 'state cannot be changed. The head branch was deleted.' })
    }
    edited(found, body['state'], stamp(world))
    if (body['state'] === 'closed' || body['state'] === 'open') found.state = body['state']
    return done(200, pullView(repo, found))
  }
  const merging = /^\/pulls\/(\d+)\/merge$/.exec(rest)
  const mergeable = merging ? pullOf(world, repo, Number(merging[1])) : undefined
  if (mergeable && req.method === 'PUT') {
    const answer = merge(mergeable, body, stamp(world))
    return answer.status === 200 ? done(200, answer.body) : sendJson(res, answer.status, answer.body)
  }
  if (rest === '/check-runs' && req.method === 'POST') {
    const run: CheckRun = {
      id: world.nextId++,
      repo,
      name: String(body['name']),
      headSha: String(body['head_sha']),
      externalId: typeof body['external_id'] === 'string' ? body['external_id'] : undefined,
      history: [],
      status: 'queued',
      conclusion: undefined,
      title: '',
      summary: '',
      detailsUrl: undefined
    }
    world.checkRuns.push(run)
    updateCheck(run, body)
    return done(201, checkView(run))
  }
  const check = /^\/check-runs\/(\d+)$/.exec(rest)
  const existing = check ? world.checkRuns.find((run) => run.id === Number(check[1])) : undefined
  if (existing && req.method === 'PATCH') {
    updateCheck(existing, body)
    return done(200, checkView(existing))
  }
  return sendJson(res, 404, { message: 'Not Found' })
}

function updateCheck(run: CheckRun, body: Record<string, unknown>): void {
  if (typeof body['status'] === 'string') run.status = body['status']
  if (typeof body['conclusion'] === 'string') {
    run.conclusion = body['conclusion']
    run.status = 'completed'
  }
  const output =
    typeof body['output'] === 'object' && body['output'] !== null ? (body['output'] as Record<string, unknown>) : {}
  if (typeof output['title'] === 'string') run.title = output['title']
  if (typeof output['summary'] === 'string') run.summary = output['summary']
  if (typeof body['details_url'] === 'string') run.detailsUrl = body['details_url']
  run.history.push(run.conclusion === undefined ? run.status : `${run.status}/${run.conclusion}`)
}

function checkView(run: CheckRun) {
  return {
    id: run.id,
    name: run.name,
    head_sha: run.headSha,
    status: run.status,
    conclusion: run.conclusion ?? null,
    external_id: run.externalId ?? null,
    html_url: `https://github.com/${run.repo}/runs/${run.id}`
  }
}

function pullOf(world: World, repo: string, number: number): SimulatedPull | undefined {
  return world.pulls.get(repo)?.find((pull) => pull.number === number)
}

function pullView(repo: string, pull: SimulatedPull) {
  return {
    number: pull.number,
    title: pull.title ?? `Pull request ${pull.number}`,
    user: { login: pull.user ?? 'octocat', type: (pull.user ?? '').endsWith('[bot]') ? 'Bot' : 'User' },
    state: pull.state,
    merged: pull.merged ?? false,
    labels: pull.labels.map((name) => ({ name })),
    head: { sha: pull.headSha ?? 'f'.repeat(40) },
    base: { sha: pull.baseSha ?? 'e'.repeat(40) },
    html_url: `https://github.com/${repo}/pull/${pull.number}`,
    ...lifeView(pull)
  }
}

function commentView(world: World, comment: StoredComment) {
  const htmlUrl =
    world.options.htmlUrl ??
    ((stored: StoredComment) => `https://github.com/${stored.repo}/issues/${stored.issue}#issuecomment-${stored.id}`)
  return {
    id: comment.id,
    body: comment.body,
    user: { login: comment.user, type: comment.user.endsWith('[bot]') ? 'Bot' : 'User' },
    html_url: htmlUrl(comment),
    issue_url: `https://api.github.com/repos/${comment.repo}/issues/${comment.issue}`,
    created_at: comment.createdAt,
    updated_at: comment.updatedAt
  }
}

/** A compare, when the options hold one; its commits page by page, its files with the first page, as GitHub does. */
function sendCompare(world: World, request: Request, basehead: string): void {
  const { res, url } = request
  const found = world.options.compares?.[basehead]
  if (!found) return sendJson(res, 404, { message: 'Not Found' })
  const { items, page, headers } = paged(found.commits, url, `${request.base}${url.pathname}`)
  const commits = items.map((commit) => ({
    sha: commit.sha,
    commit: { message: commit.message, author: { name: commit.author } },
    author: { login: commit.author }
  }))
  const body = {
    status: found.status ?? 'ahead',
    total_commits: found.commits.length,
    commits,
    ...(page === 1 ? { files: found.files } : {})
  }
  return sendJson(res, 200, body, headers)
}

/**
 * The Link header GitHub sends with a page of a list: `first`, `prev`, `next` and `last`, as each applies. `base` may
 * carry the list's other query parameters (such as `since`), which every link keeps.
 */
function pageLinks(base: string, perPage: number, page: number, total: number): Record<string, string> {
  const last = Math.max(1, Math.ceil(total / perPage))
  const link = (n: number, rel: string) => {
    const target = new URL(base)
    target.searchParams.set('per_page', String(perPage))
    target.searchParams.set('page', String(n))
    return `<${target.href}>; rel="${rel}"`
  }
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
