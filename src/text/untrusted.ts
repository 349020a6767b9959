// Text from outside (the API, GitHub, an event's payload, a prompt) is untrusted. In the log, the runner would read
// `::error::` or `::add-mask::` on a line of its own, and `##[command]` anywhere, as a workflow command; in the summary
// or a comment it could inject markup or mention people; and what a reader of GitHub's page cannot see must not reach
// the agent either. Each helper here makes such text safe for one place it goes.
import { inspect } from 'node:util'

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g

/** The text with every run of line-breaking characters made one space: an output value stays one line. */
export function withoutLineBreaks(text: string): string {
  return text.replace(LINE_BREAKING, ' ')
}

/**
 * The line with the older `##[command]` form of workflow commands broken by a zero-width space: unlike `::command::`,
 * which counts only at the start of a line, the runner finds that form anywhere in a line it prints.
 */
export function inertToRunner(line: string): string {
  return line.replaceAll('##[', '##\u200b[')
}

/** The text cut to `max` characters, ending with `…` when cut, without splitting a surrogate pair. */
export function shortened(text: string, max: number): string {
  if (text.length <= max) return text
  if (max < 1) return ''
  let end = max - 1
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1
  return `${text.slice(0, end)}…`
}

/** One line of at most `max` characters, safe to print after our own words. */
export function forLog(text: string, max = 200): string {
  return shortened(text.replace(LINE_BREAKING, ' ').trim(), max)
}

const HTML_SPECIAL: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '|': '&#124;',
  '`': '&#96;',
  '[': '&#91;',
  ']': '&#93;',
  '*': '&#42;',
  _: '&#95;',
  '\\': '&#92;'
}

/** Text safe inside the summary's HTML and Markdown: no tags, no table breaks, no emphasis or links. */
export function forMarkdown(text: string, max = 500): string {
  return forLog(text, max).replace(/[&<>"'|`[\]*_\\]/g, (char) => HTML_SPECIAL[char] ?? char)
}

/** The text's first non-empty line, on one line and shortened: how a prompt is shown. */
export function promptLine(text: string, max = 120): string {
  return forLog(text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '', max)
}

/** A readable message from anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  return inspect(error, { depth: 2, breakLength: Infinity })
}

// URLs

/** The URL if it is an absolute http(s) URL, else undefined. */
export function httpUrl(text: string | null | undefined): URL | undefined {
  if (!text) return undefined
  try {
    const url = new URL(text)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined
  } catch {
    return undefined
  }
}

/** The longest URL shown: the summary and the comment show it, and link to it, whole. */
export const SHOWN_URL_MAX = 500

/** An http(s) URL checked for showing and passing on: the URL, or why it is not passed on. */
export type CheckedUrl =
  | { readonly kind: 'url'; readonly url: URL }
  | { readonly kind: 'dropped'; readonly why: 'not an http(s) URL' | 'with a user name or password' | 'too long' }

/**
 * The http(s) URL as it may be shown, with every secret replaced; or why not: it carries a user name or password
 * (`https://docs.example@evil.example/` is not where it seems to lead), or is too long to show whole. Redacting the
 * text alone is not enough: parsing drops tabs and line breaks and folds a host's letters to lower-case ASCII, which
 * can put a secret back together.
 */
export function checkShownUrl(text: string, redact: (text: string) => string): CheckedUrl {
  const url = httpUrl(text)
  const shown = url && httpUrl(redact(url.href))
  if (!shown) return { kind: 'dropped', why: 'not an http(s) URL' }
  if (shown.username !== '' || shown.password !== '') return { kind: 'dropped', why: 'with a user name or password' }
  if (shown.href.length > SHOWN_URL_MAX) return { kind: 'dropped', why: 'too long' }
  return { kind: 'url', url: shown }
}

/** The URL checkShownUrl passes on, or none. */
export function shownHttpUrl(text: string | null | undefined, redact: (text: string) => string): URL | undefined {
  if (!text) return undefined
  const checked = checkShownUrl(text, redact)
  return checked.kind === 'url' ? checked.url : undefined
}

/** Why a URL from outside was not passed on, in words for a warning. */
export function droppedBecause(checked: CheckedUrl & { kind: 'dropped' }): string {
  switch (checked.why) {
    case 'not an http(s) URL':
      return 'it is not an http(s) URL'
    case 'with a user name or password':
      return 'it carries a user name or password, so it may not lead where it seems to'
    case 'too long':
      return `it is longer than the ${SHOWN_URL_MAX} characters passed on`
  }
}

/**
 * Why this id cannot be one segment of a URL path, or undefined when it can. An id is percent-encoded into its
 * segment, but `.` and `..` would still move the path, and a space or a control character is never part of an id.
 */
export function pathSegmentProblem(value: string): string | undefined {
  if (/^\.+$/.test(value)) return `must be an id, not "${value}"`
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(value)) return 'must not contain spaces or control characters'
  return undefined
}

// Quoting: a fence or code span longer than any run of backticks in the text is never closed by the text.

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
 * An inline code span holding `text` (one line, not empty), which cannot close it early: GitHub makes no mention,
 * issue reference, link or markup of it. A space pads text that starts or ends with a backtick or a space: Markdown
 * strips one space from each side of a padded span.
 */
export function codeSpan(text: string): string {
  const ticks = '`'.repeat(longestBacktickRun(text) + 1)
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : ''
  return `${ticks}${pad}${text}${pad}${ticks}`
}

// What reaches the agent: what a reader of the rendered page cannot see is removed (HTML comments, invisible
// characters, the bidirectional controls that make text read differently from how it is stored, and in bodies, link
// reference definitions).

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

// A Markdown link reference definition, `[label]: destination "title"`, shows nothing on the rendered page: written
// as `[//]: # (text)` or `[comment]: <> (text)`, it hides its text as an HTML comment does. Read as CommonMark reads
// one: the label, `:`, the destination (on the next line at most), an optional title in "", '' or (), which may run
// over lines but not over a blank line, and nothing else on its last line.
//
// It is removed wherever it stands, as HTML comments are: in a code block too, where it would have shown, and in a
// paragraph, which in CommonMark it cannot interrupt. Such a line is rare, and leaving out a visible line costs less
// than passing on a hidden one. For the same reason, it may follow any indentation and any `>` or list marker:
// inside a quote or a list item, a definition hides its text as well.

/** Any character but a backslash, a line feed and `excluded`; an escaped one; a line break not into a blank line. */
const spanning = (excluded: string): string => String.raw`(?:[^\\\n${excluded}]|\\.|\n(?![ \t]*\n))*`

const CONTAINERS = String.raw`[ \t]*(?:(?:>|(?:[-+*]|\d{1,9}[.)])(?=[ \t]))[ \t]*)*`
const LABEL = String.raw`\[[ \t]*(?:[^\\\s\[\]]|\\.)${spanning(String.raw`\[\]`)}\]`
const DESTINATION = String.raw`(?:<(?:[^\\\n<>]|\\.)*>|[^\s<]\S*)`
const TITLE = String.raw`(?:"${spanning('"')}"|'${spanning("'")}'|\(${spanning('()')}\))`
const TITLE_BEFORE = String.raw`(?:[ \t]+(?:\n[ \t]*)?|\n[ \t]*)`

const LINK_DEFINITION = new RegExp(
  String.raw`^${CONTAINERS}${LABEL}:[ \t]*(?:\n[ \t]*)?${DESTINATION}(?:${TITLE_BEFORE}${TITLE})?[ \t]*(?:\n|$)`,
  'gm'
)

/** The text without the lines of its link reference definitions. */
export function withoutLinkDefinitions(text: string): string {
  return text.replace(LINK_DEFINITION, '')
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

/** A title, path, label, name or first line: sanitized, on one line, and at most `max` characters. */
export function sanitizeLine(text: string, max: number): string {
  return shortened(sanitizeText(text).replace(/\s+/g, ' ').trim(), max)
}

/** The first line of a commit message, sanitized. */
export function commitSubject(message: string, max: number): string {
  return sanitizeLine(sanitizeText(message).split('\n', 1)[0] ?? '', max)
}
