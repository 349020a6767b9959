// A local stand-in for the Mintlify admin API's agent jobs, with state: create (`POST /v2/agent/{projectId}/job`),
// follow-up (`POST /v2/agent/{projectId}/job/{id}/message`) and get (`GET /v2/agent/{projectId}/job/{id}`), played
// as the real service documents them: 201 with the new job, 400 `{error}` for a missing or empty prompt, 404 for an
// unknown job or project, 401 for a wrong key, and 429 with Retry-After past the rate limit.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { jobBody, type JobStory, type Respond, sendJson } from './admin-api.ts'
import { type PreviewApi, type PreviewApiOptions, simulatePreviewApi } from './preview-api.ts'

/** How a job runs once it is started or followed up: active for a while, then its final status. */
export interface JobRun {
  /** The job answers `active` for this many polls... */
  readonly activePolls?: number
  /** ...or for this long. */
  readonly activeForMs?: number
  readonly final: { readonly status: string; readonly prLink?: string | null }
}

export interface SimulatedJob {
  readonly id: string
  /** Each prompt the job was given: the one that started it, then each follow-up. */
  readonly prompts: string[]
  /** GETs answered since the job was last started or followed up. */
  polls: number
  since: number
  /** When the last GET of it was answered (performance.now()). */
  polledAt: number | undefined
  run: JobRun
  /** The status shown before the last follow-up, while a follow-up has not taken effect yet. */
  lingering: string | undefined
}

export interface AgentApiOptions {
  readonly projectId: string
  readonly apiKey: string
  /** How each new job runs (and each job after a follow-up). */
  readonly run?: JobRun
  /** How the first, second… new job runs, in turn (the last for every later one); `run` for those past none. */
  readonly runs?: readonly JobRun[]
  /** How a new job runs, from its prompt (a batch's job runs longer, say); before `runs` and `run`. */
  readonly runFor?: (prompt: string) => JobRun
  /** Every follow-up is answered this, as a job whose state takes none may be. */
  readonly refuseFollowUps?: { readonly status: number; readonly error: string }
  /** Jobs that exist before the first request, e.g. for follow-ups or to wait for. */
  readonly existing?: readonly (Pick<JobStory, 'jobId'> & JobRun)[]
  /** More creates and follow-ups than `max` within `windowMs` get 429 with `Retry-After: retryAfterS`. */
  readonly rateLimit?: { readonly max: number; readonly windowMs: number; readonly retryAfterS: number }
  /**
   * A follow-up's answer shows the job's earlier status, and the first `polls` GETs after it do too, before the
   * job turns active: as a service that processes follow-ups asynchronously may.
   */
  readonly followUpLag?: { readonly polls: number }
  /** The preview deployments of the same project (see preview-api.ts). */
  readonly previews?: PreviewApiOptions
}

export interface AgentApi {
  readonly respond: Respond
  /** Jobs by id. */
  readonly jobs: Map<string, SimulatedJob>
  /** Every create and follow-up that arrived, in order: `create` or `follow-up <id>`, and its prompt. */
  readonly posts: { readonly what: string; readonly prompt: unknown }[]
  readonly previews: PreviewApi
}

const DEFAULT_RUN: JobRun = {
  activePolls: 2,
  final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/128' }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
  } catch {
    return undefined
  }
}

export function simulateAgentApi(options: AgentApiOptions): AgentApi {
  const run = options.run ?? DEFAULT_RUN
  const jobs = new Map<string, SimulatedJob>()
  for (const job of options.existing ?? []) {
    jobs.set(job.jobId, {
      id: job.jobId,
      prompts: [],
      polls: 0,
      since: performance.now(),
      polledAt: undefined,
      run: job,
      lingering: undefined
    })
  }
  const posts: AgentApi['posts'] = []
  const previews = simulatePreviewApi(options.projectId, options.previews)
  const accepted: number[] = []
  let next = 1
  const base = `/v2/agent/${encodeURIComponent(options.projectId)}/job`

  /** The job's status as the next GET would see it (`polls` counts that GET); a new job's answer says active. */
  const status = (job: SimulatedJob, polls = job.polls): { status: string; prLink: string | null } => {
    if (job.lingering !== undefined) return { status: job.lingering, prLink: null }
    const active =
      (job.run.activePolls !== undefined && polls <= job.run.activePolls) ||
      (job.run.activeForMs !== undefined && performance.now() - job.since < job.run.activeForMs)
    return active
      ? { status: 'active', prLink: null }
      : { status: job.run.final.status, prLink: job.run.final.prLink ?? null }
  }
  const body = (job: SimulatedJob): Record<string, unknown> => {
    const { status: now, prLink } = status(job)
    // The agent works on a branch of its own, the one its pull request comes from.
    return jobBody(
      {
        projectId: options.projectId,
        jobId: job.id,
        apiKey: options.apiKey,
        final: job.run.final,
        ref: `mintlify/${job.id}`
      },
      now,
      prLink
    )
  }
  /** Past the rate limit, answers 429 and returns true. */
  const limited = (res: ServerResponse): boolean => {
    const limit = options.rateLimit
    if (!limit) return false
    const now = performance.now()
    while (accepted.length > 0 && (accepted[0] ?? 0) <= now - limit.windowMs) accepted.shift()
    if (accepted.length >= limit.max) {
      sendJson(res, 429, { error: 'Rate limit exceeded' }, { 'retry-after': String(limit.retryAfterS) })
      return true
    }
    accepted.push(now)
    return false
  }
  const promptOf = (decoded: unknown): string | undefined => {
    const prompt = typeof decoded === 'object' && decoded !== null && 'prompt' in decoded ? decoded.prompt : undefined
    return typeof prompt === 'string' && prompt.length > 0 ? prompt : undefined
  }

  const respond: Respond = async (req, res) => {
    if (req.headers.authorization !== `Bearer ${options.apiKey}`)
      return sendJson(res, 401, { error: 'Invalid API key' })
    const path = (req.url ?? '').split('?')[0] ?? ''
    if (path.startsWith('/v1/project/')) {
      const json = req.method === 'POST' ? await readJson(req) : undefined
      if (previews.respond(req, res, json)) return
    }
    if (!path.startsWith(base)) return sendJson(res, 404, { error: 'Project not found' })
    const rest = path.slice(base.length)

    if (req.method === 'POST' && rest === '') {
      const decoded = await readJson(req)
      posts.push({
        what: 'create',
        prompt: typeof decoded === 'object' && decoded !== null && 'prompt' in decoded ? decoded.prompt : undefined
      })
      const prompt = promptOf(decoded)
      if (prompt === undefined) return sendJson(res, 400, { error: 'prompt must be a string of at least 1 character' })
      if (limited(res)) return
      const runs = options.runs ?? []
      const job: SimulatedJob = {
        id: `job-${next}`,
        prompts: [prompt],
        polls: 0,
        since: performance.now(),
        polledAt: undefined,
        run: options.runFor?.(prompt) ?? runs[Math.min(next - 1, runs.length - 1)] ?? run,
        lingering: undefined
      }
      next += 1
      jobs.set(job.id, job)
      return sendJson(res, 201, body(job))
    }

    const message = /^\/([^/]+)\/message$/.exec(rest)
    if (req.method === 'POST' && message) {
      const id = decodeURIComponent(message[1] ?? '')
      const decoded = await readJson(req)
      posts.push({
        what: `follow-up ${id}`,
        prompt: typeof decoded === 'object' && decoded !== null && 'prompt' in decoded ? decoded.prompt : undefined
      })
      const job = jobs.get(id)
      if (!job) return sendJson(res, 404, { error: 'Agent job not found' })
      const refused = options.refuseFollowUps
      if (refused) return sendJson(res, refused.status, { error: refused.error })
      const prompt = promptOf(decoded)
      if (prompt === undefined) return sendJson(res, 400, { error: 'prompt must be a string of at least 1 character' })
      if (limited(res)) return
      const before = status(job, job.polls + 1).status
      job.prompts.push(prompt)
      // A follow-up runs the job again as `run` says; a job of `runs` runs again as it first did.
      if (options.runs === undefined) job.run = run
      job.since = performance.now()
      job.polls = 0
      job.lingering = options.followUpLag ? before : undefined
      const answer = body(job)
      if (options.followUpLag) job.polls = -options.followUpLag.polls
      return sendJson(res, 200, answer)
    }

    const get = /^\/([^/]+)$/.exec(rest)
    if (req.method === 'GET' && get) {
      const job = jobs.get(decodeURIComponent(get[1] ?? ''))
      if (!job) return sendJson(res, 404, { error: 'Agent job not found' })
      job.polls += 1
      job.polledAt = performance.now()
      if (job.lingering !== undefined && job.polls > 0) {
        job.lingering = undefined
        job.polls = 1
        job.since = performance.now()
      }
      return sendJson(res, 200, body(job))
    }
    return sendJson(res, 404, { error: 'Not found' })
  }
  return { respond, jobs, posts, previews }
}
