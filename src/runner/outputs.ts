// The step's outputs: each written once, on one line, and every one of them written before the step ends.
import type { StepResult } from '../step/verdict.ts'
import { withoutLineBreaks } from '../text/untrusted-text.ts'

/** The step's outputs, as action.yml declares them. */
const OUTPUT_NAMES = [
  'status',
  'outcome',
  'job-id',
  'prLink',
  'pr-number',
  'pr-repository',
  'job',
  'branch',
  'docs-repository',
  'preview-url',
  'preview-status',
  'comment-url'
] as const
export type OutputName = (typeof OUTPUT_NAMES)[number]

export interface OutputWriter {
  /** Sets an output at once: `job-id` is there for a later step even if this one is cancelled. */
  set(name: OutputName, value: string): void
  setAll(values: Partial<Record<OutputName, string>>): void
  /** Sets every output not set yet to '', so a later step can always read each of them. */
  finish(): void
}

/**
 * Every output is one line, whatever the API or GitHub sent: a later step that reads it into a shell variable or a
 * `$GITHUB_ENV` line gets no second line. `job` is JSON, which escapes its control characters itself; the Unicode
 * line breaks JSON leaves as they are are escaped too.
 */
function oneLine(name: OutputName, value: string): string {
  if (name !== 'job') return withoutLineBreaks(value)
  return value.replace(/[\u0085\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * `cannotWrite` is told, once, when the runner's output file cannot be written (the step then writes no more
 * outputs, rather than throwing from wherever it sets one).
 */
export function outputWriter(
  setOutput: (name: string, value: string) => void,
  cannotWrite: (error: unknown) => void = (error) => {
    throw error
  }
): OutputWriter {
  const written = new Set<OutputName>()
  let broken = false
  const write = (name: OutputName, value: string): void => {
    if (broken) return
    try {
      setOutput(name, value)
    } catch (error) {
      broken = true
      cannotWrite(error)
    }
  }
  const set = (name: OutputName, value: string): void => {
    written.add(name)
    write(name, oneLine(name, value))
  }
  return {
    set,
    setAll: (values) => {
      for (const name of OUTPUT_NAMES) {
        const value = values[name]
        if (value !== undefined) set(name, value)
      }
    },
    finish: () => {
      for (const name of OUTPUT_NAMES) if (!written.has(name)) write(name, '')
    }
  }
}

/**
 * The outputs about the job: `status` (the last status the API returned; empty when it never answered), `outcome`,
 * `prLink`, `pr-number`, `pr-repository`, and `job` (the last job as JSON).
 */
export function resultOutputs(result: StepResult): Partial<Record<OutputName, string>> {
  const pr = result.job?.pr
  const link = pr?.kind === 'link' ? pr : undefined
  return {
    status: result.job?.status ?? '',
    outcome: result.kind,
    prLink: link?.url.href ?? '',
    'pr-number': link?.pullRequest ? String(link.pullRequest.number) : '',
    'pr-repository': link?.pullRequest?.repository ?? '',
    job: result.job ? JSON.stringify(result.job.body) : '',
    branch: result.job?.ref ?? '',
    'docs-repository': result.job?.repository ?? ''
  }
}
