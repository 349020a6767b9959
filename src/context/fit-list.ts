import type { Budget } from './budget.ts'

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
