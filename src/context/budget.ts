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
