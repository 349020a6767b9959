// What the step is asked to do: which project and job, which prompt, and whether to wait or follow up.
import { pathSegmentProblem } from '../../text/path-segment.ts'
import { refuseKeyAsProjectId } from './credentials.ts'
import type { InputReader } from './input-reader.ts'

export interface JobRequest {
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
}

export function readJobRequest(reader: InputReader): JobRequest {
  const projectId = reader.required('project-id', "the project id shown on the dashboard's API keys page")
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
