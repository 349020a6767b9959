// Every input, parsed and validated once into one typed object, before any request. All problems are reported
// together, each naming its input; the secrets are masked the moment they are read.
import { isLoopbackHost } from '../../transport/loopback.ts'
import { readApiKey, readGitHubToken, warnOfUnusualKey } from './credentials.ts'
import { readBaseUrl } from './base-url.ts'
import { type InputSource, InputReader } from './input-reader.ts'
import { type JobRequest, readJobRequest } from './job-request.ts'
import { type PromptContext, readPromptContext } from './prompt-context.ts'
import { readReporting, type Reporting } from './reporting.ts'
import { checkRemoteTiming, readTiming, type Timing } from './timing.ts'

export { InputError } from './input-reader.ts'
export type { FailableOutcome } from './reporting.ts'

/** Everything the action was asked to do. */
export interface Settings extends JobRequest, PromptContext, Timing, Reporting {
  /** The admin API key. Masked the moment it is read; never log it. */
  readonly apiKey: string
  /** The admin API's root, as given. */
  readonly baseUrl: URL
  readonly githubToken: string
}

/** Reads and validates every input; throws an InputError naming all the invalid ones. */
export function readSettings(source: InputSource): Settings {
  const reader = new InputReader(source)
  const apiKey = readApiKey(reader)
  const request = readJobRequest(reader)
  const promptContext = readPromptContext(reader)
  warnOfUnusualKey(reader, apiKey, request.projectId)
  const baseUrl = readBaseUrl(reader)
  const timing = readTiming(reader)
  if (baseUrl && !isLoopbackHost(baseUrl.hostname)) checkRemoteTiming(reader, timing)
  const reporting = readReporting(reader)
  const usesGitHub =
    reporting.comment || (request.followUp && request.jobId === undefined) || promptContext.context === 'auto'
  const githubToken = readGitHubToken(reader, usesGitHub)
  reader.finish()
  if (!baseUrl) throw new Error('base-url was not read, yet no problem was recorded')
  return { ...request, ...promptContext, ...timing, ...reporting, apiKey, baseUrl, githubToken }
}
