// Untrusted text is quoted so that nothing in it can end the quote: a fence or code span longer than any run of
// backticks in the text is never closed by the text.

function longestBacktickRun(text: string): number {
  let longest = 0
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length)
  return longest
}

export interface Fence {
  readonly open: string
  readonly close: string
}

/** The lines that open and close a code block holding `content`, or any part of it, which cannot close it early. */
export function fenceFor(content: string, info: 'markdown' | 'diff'): Fence {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(content) + 1))
  return { open: `${fence}${info}`, close: fence }
}

/**
 * An inline code span holding `text` (one line, not empty), which cannot close it early. A space pads text that
 * starts or ends with a backtick or a space: Markdown strips one space from each side of a padded span.
 */
export function codeSpan(text: string): string {
  const ticks = '`'.repeat(longestBacktickRun(text) + 1)
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : ''
  return `${ticks}${pad}${text}${pad}${ticks}`
}
