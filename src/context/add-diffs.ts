import type { Budget } from './budget.ts'
import { counted } from './counted.ts'
import { fencedPiece } from './fenced-piece.ts'
import type { Tally } from './report.ts'
import type { DiffPlan } from './section-plan.ts'

const HEADING = '\n### Diffs\n'
const LIMIT_WORDS = 'to stay within the context limit'

/** The line saying that the diffs of `count` files (after some shown, if `more`) were left out. */
function filesLeftOutLine(count: number, more: boolean): string {
  return `\n… the diffs of ${counted(count, more ? 'more file' : 'file')} left out ${LIMIT_WORDS}.\n`
}

function cutNote(linesLeftOut: number, filesAfter: number): string {
  const files = filesAfter > 0 ? `, and the diffs of ${counted(filesAfter, 'more file')},` : ''
  return `… ${counted(linesLeftOut, 'more line')} of this diff left out${files} ${LIMIT_WORDS}.`
}

/**
 * Adds the diffs in order while they fit whole; the first that does not is cut at a line boundary, and the rest are
 * left out, with a note of what was. Each diff is added whole only if the note that may follow it still fits.
 */
export function addDiffs(budget: Budget, diffs: readonly DiffPlan[], tally: Tally): void {
  let prefix = HEADING
  for (const [index, diff] of diffs.entries()) {
    const after = diffs.length - index - 1
    const reserve = after > 0 ? filesLeftOutLine(after, true).length : 0
    const room = budget.remaining() - prefix.length
    const piece = fencedPiece({
      label: diff.label,
      content: diff.patch,
      info: 'diff',
      wholeRoom: room - reserve,
      cutRoom: room,
      cutNote: (lines) => cutNote(lines, after)
    })
    if (piece.kind === 'whole') {
      budget.add(`${prefix}${piece.text}`)
      tally.diffsWhole += 1
      prefix = ''
      continue
    }
    if (piece.kind === 'cut') {
      budget.add(`${prefix}${piece.text}`)
      tally.diffsCut += 1
      tally.diffLinesLeftOut += piece.linesLeftOut
      tally.diffsLeftOut += after
      return
    }
    budget.add(`${prefix}${filesLeftOutLine(after + 1, index > 0)}`)
    tally.diffsLeftOut += after + 1
    return
  }
}
