// The section's text within its character limit: a piece is added whole or not at all, a list as many items as fit
// with a note of what was left out, and a fenced block whole, or cut at a line boundary with a note.
import { fenceFor } from '../text/untrusted.ts'

/** The section's text, kept within its character limit: a piece is added whole or not at all. */
export interface Budget {
  /** Characters still free. */
  readonly remaining: () => number
  /** Adds the text if it fits whole, and says whether it did. */
  readonly add: (text: string) => boolean
  readonly text: () => string
}

export function createBudget(limit: number): Budget {
  const pieces: string[] = []
  let used = 0
  return {
    remaining: () => limit - used,
    add: (text) => {
      if (used + text.length > limit) return false
      pieces.push(text)
      used += text.length
      return true
    },
    text: () => pieces.join('')
  }
}

/** The limit as a count of characters: a fraction is rounded down, and anything but a positive number is 0. */
export function characterLimit(limit: number): number {
  return Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : 0
}

/** How many of the leading lines fit in `room` characters, each with its line feed. */
export function linesThatFit(lines: readonly string[], room: number): number {
  let used = 0
  for (const [index, line] of lines.entries()) {
    used += line.length + 1
    if (used > room) return index
  }
  return lines.length
}

export interface ListPlan {
  /** The line above the items, or undefined for items that continue the line before them. */
  readonly heading: string | undefined
  /** One line each, in the order shown. */
  readonly items: readonly string[]
  /** How many more entries there are than `items`, left out before the budget was reckoned. */
  readonly alreadyLeftOut: number
  /** The line that says how many entries were left out. */
  readonly leftOutNote: (count: number) => string
}

export interface FittedList {
  readonly listed: number
  /** The budget, not the plan, left entries out. */
  readonly cut: boolean
}

/**
 * Adds the heading and as many items as fit, in order, then a line saying how many entries were left out. Each item
 * is added only if the note that may have to follow it fits too, so the note always has room.
 */
export function addList(budget: Budget, plan: ListPlan): FittedList {
  const { items, alreadyLeftOut, leftOutNote } = plan
  const total = items.length + alreadyLeftOut
  let prefix = plan.heading === undefined ? '' : `\n${plan.heading}\n`
  for (const [index, item] of items.entries()) {
    const after = total - index - 1
    const reserve = after > 0 ? leftOutNote(after).length + 1 : 0
    const piece = `${prefix}${item}\n`
    if (piece.length + reserve > budget.remaining()) {
      budget.add(`${prefix}${leftOutNote(total - index)}\n`)
      return { listed: index, cut: true }
    }
    budget.add(piece)
    prefix = ''
  }
  if (alreadyLeftOut > 0) budget.add(`${prefix}${leftOutNote(alreadyLeftOut)}\n`)
  return { listed: items.length, cut: false }
}

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
