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
