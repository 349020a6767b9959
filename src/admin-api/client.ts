// The Mintlify admin API: the agent job's three operations, get (polled), create and follow-up, and the preview's
// trigger and build status. Every answer is redacted, decoded and classified at this edge; nothing past it sees raw
// API text.
import type { Settings } from '../inputs/settings.ts'
import { type Exchange, exchange, type HttpRequest } from '../transport/exchange.ts'
import type { Transport } from '../transport/transport.ts'
import { forLog } from '../text/untrusted.ts'
import { githubHosts as githubHostsOf } from './agent-job.ts'
import { MAX_BODY_BYTES } from './answer.ts'
import { classifyPoll, classifySubmit, type PollResult, type SubmitResult } from './job-answers.ts'
import { type BuildPoll, classifyBuildPoll, classifyTrigger, type TriggerResult } from './preview-answers.ts'

export interface AdminApi {
  /** `GET /v2/agent/{projectId}/job/{id}`, within `timeoutMs`. */
  getJob(jobId: string, timeoutMs: number): Promise<PollResult>
  /** `POST /v2/agent/{projectId}/job` with the prompt, within `timeoutMs`. */
  createJob(prompt: string, timeoutMs: number): Promise<SubmitResult>
  /** `POST /v2/agent/{projectId}/job/{id}/message` with the prompt, within `timeoutMs`. */
  sendFollowUp(jobId: string, prompt: string, timeoutMs: number): Promise<SubmitResult>
  /** `POST /v1/project/preview/{projectId}` with the branch, within `timeoutMs`: builds (or rebuilds) its preview. */
  triggerPreview(branch: string, timeoutMs: number): Promise<TriggerResult>
  /** `GET /v1/project/update-status/{statusId}`, within `timeoutMs`: how the preview's build is going. */
  readPreviewBuild(statusId: string, timeoutMs: number): Promise<BuildPoll>
}

/** action.yml's default base-url. */
const DEFAULT_BASE_URL = 'https://api.mintlify.com/'

/**
 * What to say when the API's host name does not resolve. With the default base-url, the runner's DNS or network is
 * the likely cause; with one the user set, a typo is.
 */
function hostNotFoundAdvice(baseUrl: URL): (reason: string) => string {
  return baseUrl.href === DEFAULT_BASE_URL
    ? (reason) =>
        `The runner could not resolve ${baseUrl.host}, the admin API's host (${reason}). Check the runner's DNS and network; a runner that reaches the Internet only through a proxy needs HTTPS_PROXY set.`
    : (reason) =>
        `The API host could not be found (${reason}). Check base-url (${baseUrl.href}) for a typo, then the runner's DNS.`
}

/** Requests to the API's root, with the key, as JSON, each within its own deadline. */
function apiRequests(settings: Settings, transport: Transport) {
  const { baseUrl } = settings
  const root = baseUrl.pathname.replace(/\/+$/, '')
  const headers = {
    authorization: `Bearer ${settings.apiKey}`,
    accept: 'application/json',
    'user-agent': transport.userAgent
  }
  const send = (req: HttpRequest, timeoutMs: number) =>
    exchange(transport, req, { timeoutMs, maxBodyBytes: MAX_BODY_BYTES })
  return {
    /** The URL of these path segments under the API's root, each percent-encoded into one segment. */
    at: (...segments: string[]): URL => {
      const target = new URL(baseUrl)
      target.pathname = `${root}/${segments.map(encodeURIComponent).join('/')}`
      return target
    },
    get: (url: URL, timeoutMs: number) => send({ url, method: 'GET', headers }, timeoutMs),
    post: (url: URL, body: unknown, timeoutMs: number) => {
      const json = { ...headers, 'content-type': 'application/json' }
      return send({ url, method: 'POST', headers: json, body: JSON.stringify(body) }, timeoutMs)
    }
  }
}

/** `serverUrl`: GITHUB_SERVER_URL, whose pull request URLs give `pr-number` and `pr-repository` (as github.com's do). */
export function createAdminApi(settings: Settings, transport: Transport, serverUrl: string | undefined): AdminApi {
  const { projectId, baseUrl } = settings
  const fixed = {
    projectId,
    baseUrl,
    redact: transport.redact,
    githubHosts: githubHostsOf(serverUrl),
    hostNotFound: hostNotFoundAdvice(baseUrl)
  }
  const { at, get, post } = apiRequests(settings, transport)
  /** Whether the API has answered this step yet, anything at all: until then, a fault may be base-url's own. */
  let answered = false
  const judged = async (exchanging: Promise<Exchange>, target: URL, jobId?: string, what?: string) => {
    const neverAnswered = !answered
    const exchanged = await exchanging
    if (exchanged.kind === 'answer') answered = true
    return { exchanged, asked: { ...fixed, neverAnswered, target, jobId, what } }
  }
  const job = (...segments: string[]): URL => at('v2', 'agent', projectId, 'job', ...segments)
  const submit = async (target: URL, jobId: string | undefined, what: string, prompt: string, timeoutMs: number) => {
    const { exchanged, asked } = await judged(post(target, { prompt }, timeoutMs), target, jobId, what)
    return classifySubmit(exchanged, timeoutMs, { ...asked, what })
  }
  return {
    getJob: async (jobId, timeoutMs) => {
      const target = job(jobId)
      const { exchanged, asked } = await judged(get(target, timeoutMs), target, jobId)
      return classifyPoll(exchanged, timeoutMs, asked)
    },
    createJob: (prompt, timeoutMs) => submit(job(), undefined, 'start the agent job', prompt, timeoutMs),
    sendFollowUp: (jobId, prompt, timeoutMs) =>
      submit(job(jobId, 'message'), jobId, `send the follow-up to agent job "${forLog(jobId)}"`, prompt, timeoutMs),
    triggerPreview: async (branch, timeoutMs) => {
      const target = at('v1', 'project', 'preview', projectId)
      const { exchanged, asked } = await judged(
        post(target, { branch }, timeoutMs),
        target,
        undefined,
        'build the preview'
      )
      return classifyTrigger(exchanged, timeoutMs, asked)
    },
    readPreviewBuild: async (statusId, timeoutMs) => {
      const target = at('v1', 'project', 'update-status', statusId)
      const { exchanged, asked } = await judged(get(target, timeoutMs), target)
      return classifyBuildPoll(exchanged, timeoutMs, asked)
    }
  }
}
