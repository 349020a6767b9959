import type { Budget } from './budget.ts'
import { counted } from './counted.ts'
import { fencedPiece } from './fenced-piece.ts'
import type { Tally } from './report.ts'
import type { QuotePlan } from './section-plan.ts'

const cutNote = (lines: number): string =>
  `… ${counted(lines, 'more line')} of this text left out to stay within the context limit.`

/**
 * Adds each body in a fenced block, cut at a line boundary when it does not fit. A body may take its share of the
 * room left: what follows it (another body, the diffs) keeps the rest.
 */
export function addQuotes(budget: Budget, quotes: readonly QuotePlan[], diffsFollow: boolean, tally: Tally): void {
  for (const [index, quote] of quotes.entries()) {
    if (quote.content === '') {
      budget.add(`\n${quote.ifEmpty}\n`)
      continue
    }
    const sharers = quotes.length - index + (diffsFollow ? 1 : 0)
    const room = Math.floor(budget.remaining() / sharers)
    const piece = fencedPiece({ ...quote, info: 'markdown', wholeRoom: room, cutRoom: room, cutNote })
    if (piece.kind !== 'whole') tally.bodiesCut += 1
    if (piece.kind === 'none') {
      budget.add(`\n${quote.label}\n… left out to stay within the context limit (${counted(piece.lines, 'line')}).\n`)
    } else {
      budget.add(piece.text)
    }
  }
}
