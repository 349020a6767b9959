// Every input, parsed and validated once into one typed object, before any request: all problems are reported
// together, each naming its input, and the secrets are masked the moment they are read. The object then goes down
// the step whole.
import { FAILABLE_OUTCOMES, type FailableOutcome } from '../text/outcome.ts'
import { pathSegmentProblem } from '../text/untrusted.ts'
import { readBaseUrl, readTiming, type Timing } from './api.ts'
import { readApiKey, readGitHubToken, refuseKeyAsProjectId, warnOfUnusualKey } from './credentials.ts'
import { type Gates, readGates, readMaxJobsPerHour } from './gate-settings.ts'
import { type InputSource, InputReader } from './input-reader.ts'
import { type ModeSettings, readModeSettings, takesRequests } from './mode-settings.ts'

export { InputError, type InputSource } from './input-reader.ts'

/** Everything the action was asked to do. */
export interface Settings extends Timing, ModeSettings {
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
  /** With `context: auto`: tell the agent to change nothing when nothing a reader would notice changed. */
  readonly noChangeNote: boolean
  /** What keeps a change no reader would see from costing a job. */
  readonly gates: Gates
  /** Our own cap on the jobs this action starts in an hour; undefined for none. */
  readonly maxJobsPerHour: number | undefined
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
  /**
   * The tracking comment is the record the next run decides by (a pair's job, a batch's cursor, a request's job), not
   * a courtesy: a request it does not hold first is never sent.
   */
  readonly record: boolean
  /** Find the job to follow up through the issue's tracking comments. */
  readonly findJob: boolean
  /** Read the change's files (a pull request's, a push's compare): for `context: auto`, or the gates on files. */
  readonly readFiles: boolean
  /**
   * Read what the event says of the change (its author, labels) to gate it, when a prompt is to be sent. Needs no
   * token: a token's own identity is asked only where the change may be its own (see decide/gates.ts).
   */
  readonly gate: boolean
  /** Count the jobs started in the last hour, from the action's own records: with `max-jobs-per-hour`. */
  readonly countJobs: boolean
}

/** Whether the step needs the issue or pull request: to comment there, or to find the job recorded there. */
export function usesIssue(use: GitHubUse): boolean {
  return use.comment || use.findJob
}

/** Whether the step sends requests to GitHub, and so needs the token. */
export function needsToken(use: GitHubUse): boolean {
  return usesIssue(use) || use.readFiles || use.countJobs
}

/** Reads and validates every input; throws an InputError naming all the invalid ones. */
export function readSettings(source: InputSource): Settings {
  const reader = new InputReader(source)
  const apiKey = readApiKey(reader)
  const request = readJobRequest(reader)
  const asked = readContext(reader)
  warnOfUnusualKey(reader, apiKey, request.projectId)
  const baseUrl = readBaseUrl(reader)
  const timing = readTiming(reader, baseUrl)
  const modes = readModeSettings(reader, request)
  const pair = modes.mode === 'pair'
  refuseWithRequests(reader, modes, request)
  if (pair && request.prompt === undefined) {
    reader.problem(
      'Input "prompt" is required with "mode: pair": it is the instruction each job of the pull request gets.'
    )
  }
  if (modes.mode === 'batch' && request.prompt === undefined) {
    reader.problem('Input "prompt" is required with "mode: batch": it is the instruction each batch\'s job gets.')
  }
  // A pair keeps its record on the pull request, a batch on the digest issue, a request on its issue or pull request;
  // a pair tells the agent what changed.
  const sweep = modes.mode === 'sweep'
  const keepsRecord = pair || modes.mode === 'batch' || takesRequests(modes.requests) || sweep
  // A sweep writes on the records' own issues and pull requests, not on an issue of its event. With grounding: fix,
  // a follow-up is recorded on the tracking comment before it is sent.
  const recorded = keepsRecord || modes.grounding.mode === 'fix'
  const reporting = { ...readReporting(reader), ...(recorded ? { comment: !sweep } : {}) }
  const context = pair ? { ...asked, context: 'auto' as const } : asked
  const gates = readGates(reader)
  const maxJobsPerHour = readMaxJobsPerHour(reader)
  const gatesOnFiles = gates.paths !== undefined || gates.pathsIgnore !== undefined || gates.minChangedLines > 0
  const githubUse = {
    comment: reporting.comment,
    record: keepsRecord,
    findJob: request.followUp && request.jobId === undefined,
    readFiles: context.context === 'auto' || (request.prompt !== undefined && gatesOnFiles),
    gate: request.prompt !== undefined && !sweep,
    countJobs: (request.prompt !== undefined || takesRequests(modes.requests)) && maxJobsPerHour !== undefined
  }
  const githubToken = readGitHubToken(reader, needsToken(githubUse) || sweep)
  reader.finish()
  if (!baseUrl) throw new Error('base-url was not read, yet no problem was recorded')
  return {
    ...request,
    ...context,
    ...timing,
    ...reporting,
    apiKey,
    baseUrl,
    githubToken,
    gates,
    maxJobsPerHour,
    ...modes,
    githubUse
  }
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
  // With a command, a comment's words are the prompt.
  const sweep = reader.text('mode').toLowerCase() === 'sweep'
  if (jobId === '' && !hasPrompt && reader.text('command') === '' && !sweep) {
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

/** What a request from a comment or a label does not go with. */
function refuseWithRequests(
  reader: InputReader,
  modes: ModeSettings,
  request: { readonly jobId: string | undefined; readonly prompt: string | undefined; readonly followUp: boolean }
): void {
  const { requests } = modes
  if (requests.label !== undefined && request.prompt === undefined) {
    reader.problem(
      'Input "prompt" is required with "label": it is the instruction the job gets when the label is added.'
    )
  }
  if (takesRequests(requests) && modes.mode === 'batch') {
    reader.problem(
      'Inputs "command" and "label" do not go with "mode: batch": a batch covers merged pull requests, on its own schedule. Answer requests in a step of their own.'
    )
  }
  if (modes.mode === 'sweep' && (request.jobId !== undefined || takesRequests(requests))) {
    reader.problem(
      'Inputs "job-id", "command" and "label" do not go with "mode: sweep": a sweep looks over the open agent pull requests its records name, and follows up only their own jobs.'
    )
  }
  if (request.followUp && modes.mode !== 'single') {
    reader.problem(
      `Input "follow-up" does not go with "mode: ${modes.mode}": ${modes.mode === 'pair' ? 'each push already follows up the job recorded on the pull request' : modes.mode === 'sweep' ? 'a sweep follows up only the jobs of its conflicted docs pull requests' : 'each batch starts its own job'}.`
    )
  }
  if (takesRequests(requests) && request.jobId !== undefined) {
    reader.problem(
      'Input "job-id" does not go with "command" or "label": a request follows up the job recorded on its issue or pull request, or starts one.'
    )
  }
}

/** The API publishes no limit on a prompt's length; past this, a prompt stops being a prompt. */
const LARGEST_CONTEXT_LIMIT = 100_000

/** Whether to append what changed to the prompt, and how much of it. */
function readContext(reader: InputReader): Pick<Settings, 'context' | 'contextLimit' | 'noChangeNote'> {
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
  return { context, contextLimit, noChangeNote: reader.boolean('no-change-note') }
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
