// Renders the inputs and outputs tables from action.yml, so that the docs cannot drift from it: in the README, each
// with the first sentence of its description; in docs/reference.md, whole. `node scripts/action-docs.ts` rewrites
// them in place; the tests fail when they are stale.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as prettier from 'prettier'
import { readActionMetadata, ROOT } from '../sim/run-action.ts'

export const README = join(ROOT, 'README.md')
export const REFERENCE = join(ROOT, 'docs', 'reference.md')

const cell = (text: string): string => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')

/** A description's first sentence, at most about a hundred characters (cut at a word, with `…`). */
function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const end = flat.search(/\.(?= [A-Z`(]|$)/)
  const sentence = end < 0 ? flat : `${flat.slice(0, end)}.`
  if (sentence.length <= 100) return sentence
  const cut = sentence.slice(0, 100).replace(/\s+\S*$/, '')
  // A code span cut in two would open one that never closes.
  return `${(cut.split('`').length % 2 === 0 ? cut.slice(0, cut.lastIndexOf('`')) : cut).trimEnd()} …`
}

/**
 * The tables: in full for docs/reference.md; for the README (`short`), each description's first sentence, and
 * "required" in the default's column.
 */
export async function renderTables(short = false): Promise<{ inputs: string; outputs: string }> {
  const metadata = await readActionMetadata()
  const describe = (text: string): string => cell(short ? firstSentence(text) : text)
  const defaultOf = (input: { default?: string; required?: boolean }): string =>
    input.required ? 'required' : input.default === undefined ? '' : `\`${cell(input.default)}\``
  // Kept as written: Prettier would pad every row to the longest description.
  const inputs = [
    '<!-- prettier-ignore -->',
    short ? '| Input | Default | Description |' : '| Input | Required | Default | Description |',
    short ? '| --- | --- | --- |' : '| --- | --- | --- | --- |',
    ...Object.entries(metadata.inputs).map(([name, input]) =>
      short
        ? `| \`${name}\` | ${defaultOf(input)} | ${describe(input.description)} |`
        : `| \`${name}\` | ${input.required ? 'yes' : 'no'} | ${input.default === undefined ? '' : `\`${cell(input.default)}\``} | ${describe(input.description)} |`
    )
  ].join('\n')
  const outputs = [
    '<!-- prettier-ignore -->',
    '| Output | Description |',
    '| --- | --- |',
    ...Object.entries(metadata.outputs).map(([name, output]) => `| \`${name}\` | ${describe(output.description)} |`)
  ].join('\n')
  return { inputs, outputs }
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceSection(text: string, name: string, body: string): string {
  const pattern = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`)
  if (!pattern.test(text)) throw new Error(`README.md has no ${name} section markers`)
  return text.replace(pattern, (_, start: string, end: string) => `${start}\n${body}\n${end}`)
}

/** The page with fresh tables (short ones for the README), laid out by Prettier as `npm run format` would. */
export async function renderPage(page: string): Promise<string> {
  const { inputs, outputs } = await renderTables(page === README)
  const current = await readFile(page, 'utf8')
  const text = replaceSection(replaceSection(current, 'inputs', inputs), 'outputs', outputs)
  return prettier.format(text, { ...(await prettier.resolveConfig(page)), filepath: page })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const page of [README, REFERENCE]) await writeFile(page, await renderPage(page))
  console.log('README.md and docs/reference.md tables regenerated from action.yml')
}
