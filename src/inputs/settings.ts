// Every input, parsed and validated once into one typed object, before any request: all problems are reported
// together, each naming its input, and the secrets are masked the moment they are read. The object then goes down
// the step whole.
import { FAILABLE_OUTCOMES, type FailableOutcome } from '../text/outcome.ts'
import { formatDuration } from '../text/duration.ts'
import { pathSegmentProblem } from '../text/untrusted.ts'
import { readApiKey, readGitHubToken, refuseKeyAsProjectId, warnOfUnusualKey } from './credentials.ts'
import { type InputSource, InputReader } from './input-reader.ts'

export { InputError, type InputSource } from './input-reader.ts'

/** Everything the action was asked to do. */
export interface Settings {
  /** The admin API key. Masked the moment it is read; never log it. */
  readonly apiKey: string
  /** The admin API's root, as given. */
  readonly baseUrl: URL
  readonly projectId: string
  /** The job to follow up or wait for; undefined to start a new one from the prompt. */
  readonly jobId: string | undefined
  /** Instructions for the agent, exactly as given (multi-line, any characters); undefined when none. */
  readonly prompt: string | undefined
  /** Whether to wait for the job to end; `false` ends the step once the job is started or the follow-up accepted. */
  readonly wait: boolean
  /** With a prompt and no job-id: follow up the job last reported on the issue or pull request, if there is one. */
  readonly followUp: boolean
  /** Once the job completes with a pull request, build the preview of its branch and wait for it. */
  readonly preview: boolean
  /** `auto`: append a "What changed" section built from the event that started the run. */
  readonly context: 'none' | 'auto'
  /** The section's length at most, in characters. */
  readonly contextLimit: number
  readonly timeoutMs: number
  /** The first wait between two polls. */
  readonly pollIntervalMs: number
  /** The longest wait between two polls. */
  readonly maxPollIntervalMs: number
  /** The deadline of one HTTP request. */
  readonly requestTimeoutMs: number
  readonly failOn: ReadonlySet<FailableOutcome>
  readonly comment: boolean
  /** Where to comment; undefined means the triggering issue or pull request. */
  readonly issueNumber: number | undefined
  readonly githubToken: string
  /** What the step does on GitHub: decided here, once. */
  readonly githubUse: GitHubUse
}

/** What the step does on GitHub. */
export interface GitHubUse {
  /** Keep a tracking comment on the issue or pull request. */
  readonly comment: boolean
  /** Find the job to follow up through the issue's tracking comments. */
  readonly findJob: boolean
  /** Read what changed, for `context: auto`. */
  readonly readChange: boolean
}

/** Whether the step needs the issue or pull request: to comment there, or to find the job recorded there. */
export function usesIssue(use: GitHubUse): boolean {
  return use.comment || use.findJob
}

/** Reads and validates every input; throws an InputError naming all the invalid ones. */
export function readSettings(source: InputSource): Settings {
  const reader = new InputReader(source)
  const apiKey = readApiKey(reader)
  const request = readJobRequest(reader)
  const context = readContext(reader)
  warnOfUnusualKey(reader, apiKey, request.projectId)
  const baseUrl = readBaseUrl(reader)
  const timing = readTiming(reader, baseUrl)
  const reporting = readReporting(reader)
  const githubUse = {
    comment: reporting.comment,
    findJob: request.followUp && request.jobId === undefined,
    readChange: context.context === 'auto'
  }
  const githubToken = readGitHubToken(reader, usesIssue(githubUse) || githubUse.readChange)
  reader.finish()
  if (!baseUrl) throw new Error('base-url was not read, yet no problem was recorded')
  return { ...request, ...context, ...timing, ...reporting, apiKey, baseUrl, githubToken, githubUse }
}

/** What the step is asked to do: which project and job, which prompt, and whether to wait or follow up. */
function readJobRequest(reader: InputReader) {
  const projectId = reader.required(
    'project-id',
    "the project id shown on the dashboard's API keys page. Empty means the variable it comes from (such as vars.MINTLIFY_PROJECT_ID) is not set for this repository or environment"
  )
  refuseKeyAsProjectId(reader, projectId)
  const jobId = reader.text('job-id')
  // The prompt is sent as given: not trimmed, so a multi-line prompt keeps its layout.
  const prompt = reader.source.getInput('prompt', { trimWhitespace: false })
  const hasPrompt = prompt.trim() !== ''
  if (jobId === '' && !hasPrompt) {
    reader.problem(
      'Input "prompt" or "job-id" is required: "prompt" to start an agent job (or, with "job-id", to follow one up), "job-id" alone to wait for a job started elsewhere.'
    )
  }
  if (jobId !== '' && !hasPrompt && prompt !== '') {
    // Often an expression that came out empty, such as a comment's body: say so rather than only wait.
    reader.warning('Input "prompt" holds only whitespace, so no follow-up is sent: the step only waits for "job-id".')
  }
  for (const [name, value] of [
    ['project-id', projectId],
    ['job-id', jobId]
  ] as const) {
    const problem = pathSegmentProblem(value)
    if (value !== '' && problem) reader.problem(`Input "${name}" ${problem}.`)
  }
  const wait = reader.boolean('wait')
  const followUp = reader.boolean('follow-up')
  const preview = reader.boolean('preview')
  if (followUp && jobId !== '') {
    reader.notice('Input "follow-up" is true, and "job-id" names the job: the prompt goes to that job.')
  }
  if (followUp && !hasPrompt) {
    reader.problem(
      'Input "follow-up" sends "prompt" to the job already on the issue or pull request: set "prompt" too.'
    )
  }
  return {
    projectId,
    jobId: jobId === '' ? undefined : jobId,
    prompt: hasPrompt ? prompt : undefined,
    wait,
    followUp,
    preview
  }
}

/** The API publishes no limit on a prompt's length; past this, a prompt stops being a prompt. */
const LARGEST_CONTEXT_LIMIT = 100_000

/** Whether to append what changed to the prompt, and how much of it. */
function readContext(reader: InputReader): Pick<Settings, 'context' | 'contextLimit'> {
  const given = reader.text('context').toLowerCase()
  const context = given === 'auto' ? 'auto' : 'none'
  if (given !== 'auto' && given !== 'none') {
    reader.problem(`Input "context" must be none or auto; got "${reader.text('context')}".`)
  }
  const limitText = reader.text('context-limit')
  const contextLimit = /^\d+$/.test(limitText) ? Number(limitText) : Number.NaN
  if (!(contextLimit >= 500 && contextLimit <= LARGEST_CONTEXT_LIMIT)) {
    reader.problem(
      `Input "context-limit" must be a whole number of characters from 500 to ${LARGEST_CONTEXT_LIMIT.toLocaleString('en-US')}; got "${limitText}".`
    )
  }
  return { context, contextLimit }
}

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i

/** Whether a URL's host name is this machine: `localhost`, `127.x.x.x` or `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOST.test(hostname)
}

/** The admin API's root: https (http only on this machine), no credentials, no query, no version path. */
function readBaseUrl(reader: InputReader): URL | undefined {
  const text = reader.text('base-url')
  let url: URL
  try {
    url = new URL(text)
  } catch {
    reader.problem(`Input "base-url" must be an absolute URL such as https://api.mintlify.com; got "${text}".`)
    return undefined
  }
  const problem = baseUrlProblem(url)
  if (problem === undefined) return url
  reader.problem(problem)
  return undefined
}

function baseUrlProblem(url: URL): string | undefined {
  const where = `Input "base-url" (${url.href})`
  if (url.username !== '' || url.password !== '') {
    return 'Input "base-url" must not contain credentials: the API key is sent as a bearer token.'
  }
  if (url.search !== '' || url.hash !== '') return `${where} must not have a query or fragment.`
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `${where} must use https://; plain http:// is allowed only for localhost, so the key never crosses a network in clear text.`
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${where} must use https://.`
  if (url.pathname.split('/').some((segment) => /^v\d+$/i.test(segment))) {
    return `${where} must be the API's root, without a version path: the action adds /v2 itself (use https://api.mintlify.com, not https://api.mintlify.com/v2).`
  }
  return undefined
}

/** GitHub-hosted runners end a job after six hours. */
const LONGEST_HOSTED_JOB_MS = 6 * 3_600_000
/** Against a remote API nothing polls, or gives up on a request, sooner than this. */
const SHORTEST_REMOTE_MS = 1000

type Timing = Pick<Settings, 'timeoutMs' | 'pollIntervalMs' | 'maxPollIntervalMs' | 'requestTimeoutMs'>

/** How long the step waits, and how often it asks. */
function readTiming(reader: InputReader, baseUrl: URL | undefined): Timing {
  const timeoutMs = reader.duration('timeout')
  const bare = reader.text('timeout')
  if (/^\d+$/.test(bare) && Number(bare) < 60) {
    // Many read `timeout: 30` as minutes.
    reader.notice(`Input "timeout" is ${bare}, read as ${bare} seconds; write ${bare}m for minutes.`)
  }
  if (timeoutMs > LONGEST_HOSTED_JOB_MS) {
    reader.warning(
      `Input "timeout" (${formatDuration(timeoutMs)}) is longer than a GitHub-hosted runner lets a job run (6h); only a self-hosted runner waits that long.`
    )
  }
  const pollIntervalMs = reader.duration('poll-interval')
  const maxPollIntervalMs = reader.duration('max-poll-interval')
  const requestTimeoutMs = reader.duration('request-timeout')
  if (pollIntervalMs > maxPollIntervalMs) {
    reader.problem(
      `Input "poll-interval" (${formatDuration(pollIntervalMs)}) must not exceed "max-poll-interval" (${formatDuration(maxPollIntervalMs)}).`
    )
  }
  const timing = { timeoutMs, pollIntervalMs, maxPollIntervalMs, requestTimeoutMs }
  if (baseUrl && !isLoopbackHost(baseUrl.hostname)) checkRemoteTiming(reader, timing)
  return timing
}

/**
 * Refuses intervals under a second against a remote API: they would flood it, and a request deadline that short makes
 * every start "may or may not have worked". A loopback base-url (a local simulator) accepts any.
 */
function checkRemoteTiming(reader: InputReader, timing: Timing): void {
  for (const [name, ms] of [
    ['poll-interval', timing.pollIntervalMs],
    ['max-poll-interval', timing.maxPollIntervalMs],
    ['request-timeout', timing.requestTimeoutMs]
  ] as const) {
    if (ms < SHORTEST_REMOTE_MS) {
      reader.problem(
        `Input "${name}" (${formatDuration(ms)}) must be at least 1s against a remote API; only a loopback base-url, such as a local simulator, accepts less.`
      )
    }
  }
}

/** How the outcome is reported: which outcomes fail the step, and whether (and where) to keep a tracking comment. */
function readReporting(reader: InputReader): Pick<Settings, 'failOn' | 'comment' | 'issueNumber'> {
  return { failOn: readFailOn(reader), comment: reader.boolean('comment'), issueNumber: readIssueNumber(reader) }
}

function readFailOn(reader: InputReader): ReadonlySet<FailableOutcome> {
  const items = reader.source
    .getMultilineInput('fail-on')
    .flatMap((line) => line.split(','))
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '')
  const allowed: readonly string[] = FAILABLE_OUTCOMES
  const unknown = items.filter((item) => !allowed.includes(item))
  if (unknown.length > 0) {
    reader.problem(
      `Input "fail-on" accepts ${FAILABLE_OUTCOMES.join(', ')} (comma or newline separated); got "${unknown.join('", "')}".`
    )
  }
  return new Set(items.filter((item): item is FailableOutcome => allowed.includes(item)))
}

function readIssueNumber(reader: InputReader): number | undefined {
  const text = reader.text('issue-number')
  if (text === '') return undefined
  const number = /^#?(\d+)$/.exec(text)?.[1]
  if (number === undefined || Number(number) < 1 || !Number.isSafeInteger(Number(number))) {
    reader.problem(`Input "issue-number" must be a positive whole number; got "${text}".`)
    return undefined
  }
  return Number(number)
}
