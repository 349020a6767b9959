// The grounding check's inputs: whether the names a docs pull request adds are checked against the code (`grounding`),
// how many times the agent is asked to correct them (`grounding-rounds`), and the names that are not claims
// (`grounding-ignore`).
import type { InputReader } from './input-reader.ts'

export const GROUNDING_MODES = ['off', 'report', 'fix'] as const
export type GroundingMode = (typeof GROUNDING_MODES)[number]

export interface GroundingSettings {
  /** `off`: not checked; `report`: told; `fix`: told, after a follow-up that asks the agent to correct them. */
  readonly mode: GroundingMode
  /** With `fix`: how many follow-ups at most, 1 to 3. */
  readonly rounds: number
  /** One pattern a line: names that are not claims. */
  readonly ignore: string
}

export const MOST_GROUNDING_ROUNDS = 3

export function readGroundingSettings(reader: InputReader): GroundingSettings {
  const given = reader.text('grounding').toLowerCase() || 'report'
  const mode = GROUNDING_MODES.find((candidate) => candidate === given)
  if (mode === undefined) {
    reader.problem(`Input "grounding" must be ${GROUNDING_MODES.join(', ')}; got "${reader.text('grounding')}".`)
  }
  const roundsText = reader.text('grounding-rounds') || '1'
  const rounds = Number(roundsText)
  const roundsOk = /^\d$/.test(roundsText) && rounds >= 1 && rounds <= MOST_GROUNDING_ROUNDS
  if (!roundsOk) {
    reader.problem(
      `Input "grounding-rounds" must be a whole number of follow-ups from 1 to ${MOST_GROUNDING_ROUNDS}; got "${roundsText}".`
    )
  }
  return { mode: mode ?? 'report', rounds: roundsOk ? rounds : 1, ignore: reader.text('grounding-ignore') }
}
