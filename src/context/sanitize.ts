// Text from the event or GitHub is written by anyone who can open a pull request or push. What a reader of the
// rendered page cannot see must not reach the agent either: HTML comments, invisible characters, the bidirectional
// controls that make text read differently from how it is stored, and in bodies, link reference definitions.
import { withoutLinkDefinitions } from './link-definitions.ts'

// Unicode's default-ignorable code points (zero-width space and joiners, word joiner, BOM, soft hyphen, Hangul
// fillers, tag characters, ...), the bidirectional controls, and the interlinear annotation marks; but not the
// variation selectors, which choose how an emoji or a CJK character looks and hide nothing.
const INVISIBLE =
  /[[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}\u{FFF9}-\u{FFFB}]--[\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]]/gv
const LINE_BREAK = /\r\n?|[\u0085\u2028\u2029]/g
// C0 and C1 controls, DEL: all but the tab and the line feed.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g
// As GitHub reads them: `<!-->`, `<!--->`, `<!-- ... -->`, and one never closed hides the rest of the text.
const HTML_COMMENT = /<!--(?:-?>|[\s\S]*?-->|[\s\S]*)/g

/** The text with line breaks made `\n`, every control and invisible character removed, and no lone surrogate. */
function visibleText(text: string): string {
  return text.toWellFormed().replace(LINE_BREAK, '\n').replace(CONTROL, '').replace(INVISIBLE, '')
}

/** Without blank lines at the start and white space at the end. */
function trimmed(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd()
}

/** The text without invisible characters and HTML comments. */
function withoutComments(text: string): string {
  // Invisible characters go first, so that none can split `<!--` and keep a comment from being removed.
  return visibleText(text).replace(HTML_COMMENT, '')
}

/** A comment on lines of its own leaves them blank: one blank line reads the same as several. */
function tidied(text: string): string {
  return trimmed(text.replace(/\n(?:[ \t]*\n){2,}/g, '\n\n'))
}

/** A title or a commit message, as GitHub shows it: without what is hidden there. */
export function sanitizeText(text: string): string {
  return tidied(withoutComments(text))
}

/**
 * A body, comment or release's notes, as a reader of the rendered Markdown sees it: as sanitizeText leaves it, and
 * without link reference definitions, which Markdown shows nothing of (titles and commit messages are not rendered
 * as Markdown, so there they show).
 */
export function sanitizeBody(text: string): string {
  return tidied(withoutLinkDefinitions(withoutComments(text)))
}

/**
 * A diff, as GitHub's diff view shows it: an HTML comment in a changed file is shown there, so it is kept (removing
 * it would drop or join the diff's lines); invisible characters and bidirectional controls are removed.
 */
export function sanitizeDiff(patch: string): string {
  return trimmed(visibleText(patch))
}

/** The text cut to `max` characters, ending with `…` when cut, without splitting a surrogate pair. */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text
  if (max < 1) return ''
  let end = max - 1
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1
  return `${text.slice(0, end)}…`
}

/** A title, path, label, name or first line: sanitized, on one line, and at most `max` characters. */
export function sanitizeLine(text: string, max: number): string {
  return shortened(sanitizeText(text).replace(/\s+/g, ' ').trim(), max)
}

/** The first line of a commit message, sanitized. */
export function firstLineOf(message: string, max: number): string {
  return sanitizeLine(sanitizeText(message).split('\n', 1)[0] ?? '', max)
}
