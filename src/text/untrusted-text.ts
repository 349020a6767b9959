// Text that comes from outside (the API, GitHub, prompts) is untrusted: on its own line the runner would read
// `::error::` or `::add-mask::` as a workflow command, and in the summary or a comment it could inject markup.

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

/** One line of at most `max` characters, safe to print after our own words. */
export function forLog(text: string, max = 200): string {
  const line = text.replace(LINE_BREAKING, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
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

/**
 * The http(s) URL as it may be shown, with every secret replaced; none when it carries a user name or password
 * (`https://docs.example@evil.example/` is not where it seems to lead) or is too long to show whole. Redacting the text
 * alone is not enough: parsing drops tabs and line breaks and folds a host's letters to lower-case ASCII, which can
 * put a secret back together.
 */
export function shownHttpUrl(text: string | null | undefined, redact: (text: string) => string): URL | undefined {
  const url = httpUrl(text)
  const shown = url && httpUrl(redact(url.href))
  if (!shown || shown.username !== '' || shown.password !== '' || shown.href.length > SHOWN_URL_MAX) return undefined
  return shown
}

/** The text's first non-empty line, on one line and shortened: how a prompt is shown. */
export function firstLine(text: string, max = 120): string {
  return forLog(text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '', max)
}
