// How the outcome is reported: which outcomes fail the step, and whether (and where) to keep a tracking comment.
import { TERMINAL_STATUSES } from '../../admin-api/agent-job.ts'
import type { InputReader } from './input-reader.ts'

const OUTCOMES_THAT_CAN_FAIL = [...TERMINAL_STATUSES, 'timeout', 'preview-failed'] as const
export type FailableOutcome = (typeof OUTCOMES_THAT_CAN_FAIL)[number]

export interface Reporting {
  readonly failOn: ReadonlySet<FailableOutcome>
  readonly comment: boolean
  /** Where to comment; undefined means the triggering issue or pull request. */
  readonly issueNumber: number | undefined
}

export function readReporting(reader: InputReader): Reporting {
  const failOn = readFailOn(reader)
  const comment = reader.boolean('comment')
  const issueNumber = readIssueNumber(reader)
  return { failOn, comment, issueNumber }
}

function readFailOn(reader: InputReader): ReadonlySet<FailableOutcome> {
  const items = reader.source
    .getMultilineInput('fail-on')
    .flatMap((line) => line.split(','))
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '')
  const allowed: readonly string[] = OUTCOMES_THAT_CAN_FAIL
  const unknown = items.filter((item) => !allowed.includes(item))
  if (unknown.length > 0) {
    reader.problem(
      `Input "fail-on" accepts ${OUTCOMES_THAT_CAN_FAIL.join(', ')} (comma or newline separated); got "${unknown.join('", "')}".`
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
