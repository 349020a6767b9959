import type * as core from '@actions/core'
import { formatDuration, parseDuration } from './duration.ts'
import { TERMINAL_STATUSES } from './job.ts'
import { isLoopbackHost } from './loopback.ts'
import { pathSegmentProblem } from './path-segment.ts'

const OUTCOMES_THAT_CAN_FAIL = [...TERMINAL_STATUSES, 'timeout'] as const
type FailableOutcome = (typeof OUTCOMES_THAT_CAN_FAIL)[number]

/** Everything the action was asked to do, parsed and validated once. */
export interface Settings {
  readonly projectId: string
  /** The job to follow up or wait for; undefined to start a new one from the prompt. */
  readonly jobId: string | undefined
  /** Instructions for the agent, exactly as given (multi-line, any characters); undefined when none. */
  readonly prompt: string | undefined
  /** Whether to wait for the job to end; `false` ends the step once the job is started or the follow-up accepted. */
  readonly wait: boolean
  /** With a prompt and no job-id: follow up the job last reported on the issue or pull request, if there is one. */
  readonly followUp: boolean
  /** The admin API key. Masked the moment it is read; never log it. */
  readonly apiKey: string
  /** The admin API's root, as given. */
  readonly baseUrl: URL
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
}

/** The runner's side of reading inputs: `@actions/core`, or a stand-in that records secrets and warnings. */
type InputSource = Pick<typeof core, 'getInput' | 'getBooleanInput' | 'getMultilineInput' | 'setSecret' | 'warning'>

/** Node cannot wait longer than this in one timer; a longer one fires at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1
/** GitHub-hosted runners end a job after six hours. */
const LONGEST_HOSTED_JOB_MS = 6 * 3_600_000

/** One or more inputs are invalid; the message names each of them. */
export class InputError extends Error {
  override name = 'InputError'
}

/** Reads and validates every input; throws an InputError naming all the invalid ones before any request. */
export function readSettings(source: InputSource): Settings {
  const problems: string[] = []
  const input = (name: string): string => source.getInput(name).trim()
  const required = (name: string, what: string): string => {
    const value = input(name)
    if (value === '') problems.push(`Input "${name}" is required: ${what}.`)
    return value
  }

  const apiKey = required('api-key', 'pass your admin API key from a secret, e.g. ${{ secrets.MINTLIFY_API_KEY }}')
  if (apiKey !== '') source.setSecret(apiKey)
  const keyProblem = headerValueProblem(apiKey)
  if (keyProblem) problems.push(`Input "api-key" ${keyProblem}; check the secret for a pasted extra character.`)
  const projectId = required('project-id', "the project id shown on the dashboard's API keys page")
  const jobId = input('job-id')
  // The prompt is sent as given: not trimmed, so a multi-line prompt keeps its layout.
  const prompt = source.getInput('prompt', { trimWhitespace: false })
  const hasPrompt = prompt.trim() !== ''
  if (jobId === '' && !hasPrompt) {
    problems.push(
      'Input "prompt" or "job-id" is required: "prompt" to start an agent job (or, with "job-id", to follow one up), "job-id" alone to wait for a job started elsewhere.'
    )
  }
  if (jobId !== '' && !hasPrompt && prompt !== '') {
    // Often an expression that came out empty, such as a comment's body: say so rather than only wait.
    source.warning('Input "prompt" holds only whitespace, so no follow-up is sent: the step only waits for "job-id".')
  }
  for (const [name, value] of [
    ['project-id', projectId],
    ['job-id', jobId]
  ] as const) {
    const problem = pathSegmentProblem(value)
    if (value !== '' && problem) problems.push(`Input "${name}" ${problem}.`)
  }
  if (apiKey !== '' && !apiKey.startsWith('mint_')) {
    const hint = apiKey === projectId ? 'it equals project-id' : 'the usual mistake is passing the project id'
    source.warning(
      `Input "api-key" does not start with "mint_" as Mintlify admin API keys do (${hint}). Expect the API to refuse it.`
    )
  }

  const baseUrl = parseBaseUrl(input('base-url'), problems)
  const duration = (name: string): number => {
    const text = input(name)
    const ms = parseDuration(text)
    if (ms === undefined || ms <= 0) {
      problems.push(
        `Input "${name}" must be a positive duration such as 500ms, 10s, 5m, 1h, 1m 30s or a number of seconds; got "${text}".`
      )
      return Number.NaN
    }
    if (ms > LONGEST_TIMER_MS) {
      problems.push(`Input "${name}" (${formatDuration(ms)}) is longer than a timer can hold (about 24.8 days).`)
      return Number.NaN
    }
    return ms
  }
  const timeoutMs = duration('timeout')
  if (timeoutMs > LONGEST_HOSTED_JOB_MS) {
    source.warning(
      `Input "timeout" (${formatDuration(timeoutMs)}) is longer than a GitHub-hosted runner lets a job run (6h); only a self-hosted runner waits that long.`
    )
  }
  const pollIntervalMs = duration('poll-interval')
  const maxPollIntervalMs = duration('max-poll-interval')
  const requestTimeoutMs = duration('request-timeout')
  if (pollIntervalMs > maxPollIntervalMs) {
    problems.push(
      `Input "poll-interval" (${formatDuration(pollIntervalMs)}) must not exceed "max-poll-interval" (${formatDuration(maxPollIntervalMs)}).`
    )
  }

  const failOn = parseFailOn(source.getMultilineInput('fail-on'), problems)
  const boolean = (name: string): boolean => {
    try {
      return source.getBooleanInput(name)
    } catch {
      problems.push(`Input "${name}" must be true or false; got "${input(name)}".`)
      return false
    }
  }
  const comment = boolean('comment')
  const wait = boolean('wait')
  const followUp = boolean('follow-up')
  if (followUp && !hasPrompt) {
    problems.push('Input "follow-up" sends "prompt" to the job already on the issue or pull request: set "prompt" too.')
  }
  const issueNumber = parseIssueNumber(input('issue-number'), problems)
  const githubToken = input('github-token')
  if (githubToken !== '') source.setSecret(githubToken)
  const usesGitHub = comment || (followUp && jobId === '')
  if (usesGitHub && githubToken === '') {
    problems.push(
      'Input "github-token" is required when "comment" or "follow-up" is true: leave it unset to use ${{ github.token }}.'
    )
  }
  const tokenProblem = usesGitHub ? headerValueProblem(githubToken) : undefined
  if (tokenProblem) problems.push(`Input "github-token" ${tokenProblem}.`)

  if (problems.length > 0 || !baseUrl) throw new InputError(problems.join('\n'))
  return {
    projectId,
    jobId: jobId === '' ? undefined : jobId,
    prompt: hasPrompt ? prompt : undefined,
    wait,
    followUp,
    apiKey,
    baseUrl,
    timeoutMs,
    pollIntervalMs,
    maxPollIntervalMs,
    requestTimeoutMs,
    failOn,
    comment,
    issueNumber,
    githubToken
  }
}

/** Characters a pasted secret often carries without anyone seeing them. */
const NAMED_CHARACTERS: Readonly<Record<number, string>> = {
  0x0a: 'a line break',
  0x0d: 'a line break',
  0x09: 'a tab',
  0xa0: 'a no-break space',
  0x200b: 'a zero-width space',
  0x200c: 'a zero-width non-joiner',
  0x200d: 'a zero-width joiner',
  0x2060: 'a word joiner',
  0xfeff: 'a byte-order mark'
}

/**
 * Why a secret cannot be sent in an HTTP header, if it cannot: only visible ASCII can. The problem names the
 * character's position and code, never the secret.
 */
function headerValueProblem(secret: string): string | undefined {
  const index = secret.search(/[^\x21-\x7e]/)
  if (index < 0) return undefined
  const code = secret.codePointAt(index) ?? 0
  const what =
    NAMED_CHARACTERS[code] ??
    (code < 0x20 || code === 0x7f ? 'a control character' : code === 0x20 ? 'a space' : 'a non-ASCII character')
  return `holds ${what} (U+${code.toString(16).toUpperCase().padStart(4, '0')}) at character ${index + 1}, so it cannot be sent in an HTTP header`
}

function parseBaseUrl(text: string, problems: string[]): URL | undefined {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    problems.push(`Input "base-url" must be an absolute URL such as https://api.mintlify.com; got "${text}".`)
    return undefined
  }
  const where = `Input "base-url" (${url.href})`
  if (url.username !== '' || url.password !== '') {
    problems.push('Input "base-url" must not contain credentials: the API key is sent as a bearer token.')
  } else if (url.search !== '' || url.hash !== '') {
    problems.push(`${where} must not have a query or fragment.`)
  } else if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    problems.push(
      `${where} must use https://; plain http:// is allowed only for localhost, so the key never crosses a network in clear text.`
    )
  } else if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    problems.push(`${where} must use https://.`)
  } else if (url.pathname.split('/').some((segment) => /^v\d+$/i.test(segment))) {
    problems.push(
      `${where} must be the API's root, without a version path: the action adds /v2 itself (use https://api.mintlify.com, not https://api.mintlify.com/v2).`
    )
  } else {
    return url
  }
  return undefined
}

function parseFailOn(lines: string[], problems: string[]): ReadonlySet<FailableOutcome> {
  const items = lines
    .flatMap((line) => line.split(','))
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '')
  const allowed: readonly string[] = OUTCOMES_THAT_CAN_FAIL
  const unknown = items.filter((item) => !allowed.includes(item))
  if (unknown.length > 0) {
    problems.push(
      `Input "fail-on" accepts ${OUTCOMES_THAT_CAN_FAIL.join(', ')} (comma or newline separated); got "${unknown.join('", "')}".`
    )
  }
  return new Set(items.filter((item): item is FailableOutcome => allowed.includes(item)))
}

function parseIssueNumber(text: string, problems: string[]): number | undefined {
  if (text === '') return undefined
  const number = /^#?(\d+)$/.exec(text)?.[1]
  if (number === undefined || Number(number) < 1 || !Number.isSafeInteger(Number(number))) {
    problems.push(`Input "issue-number" must be a positive whole number; got "${text}".`)
    return undefined
  }
  return Number(number)
}
