import { linesThatFit } from './budget.ts'
import { fenceFor } from './fence.ts'

export interface FencedPiecePlan {
  /** Our own line above the block, such as "Pull request body, as written by its author:". */
  readonly label: string
  /** Sanitized text, one or more lines. */
  readonly content: string
  readonly info: 'markdown' | 'diff'
  /** The room for the whole piece. */
  readonly wholeRoom: number
  /** The room for the piece once cut, with its note. */
  readonly cutRoom: number
  /** The line after a cut block, saying how many of its lines were left out. */
  readonly cutNote: (linesLeftOut: number) => string
}

export type FencedPiece =
  | { readonly kind: 'whole'; readonly text: string }
  | { readonly kind: 'cut'; readonly text: string; readonly linesLeftOut: number }
  | { readonly kind: 'none'; readonly lines: number }

/**
 * The labelled, fenced block (after a blank line): whole when it fits, else cut at a line boundary with a note of
 * the lines left out, else none when not even its first line fits.
 */
export function fencedPiece(plan: FencedPiecePlan): FencedPiece {
  const { open, close } = fenceFor(plan.content, plan.info)
  const head = `\n${plan.label}\n${open}\n`
  const whole = `${head}${plan.content}\n${close}\n`
  const lines = plan.content.split('\n')
  if (whole.length <= plan.wholeRoom) return { kind: 'whole', text: whole }
  const frame = head.length + close.length + 1 + plan.cutNote(lines.length).length + 1
  let kept = Math.min(lines.length - 1, linesThatFit(lines, plan.cutRoom - frame))
  const cutText = (): string =>
    `${head}${lines.slice(0, kept).join('\n')}\n${close}\n${plan.cutNote(lines.length - kept)}\n`
  // A note may be longer for fewer lines left out than for all of them: drop lines until it fits.
  while (kept > 0 && cutText().length > plan.cutRoom) kept -= 1
  if (kept === 0) return { kind: 'none', lines: lines.length }
  return { kind: 'cut', text: cutText(), linesLeftOut: lines.length - kept }
}
