// Renders the README's inputs and outputs tables from action.yml, so the two cannot drift.
// `node scripts/action-docs.ts` rewrites them in place; the tests fail when they are stale.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as prettier from 'prettier'
import { readActionMetadata, ROOT } from '../sim/run-action.ts'

export const README = join(ROOT, 'README.md')

const cell = (text: string): string => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')

export async function renderTables(): Promise<{ inputs: string; outputs: string }> {
  const metadata = await readActionMetadata()
  // Kept as written: Prettier would pad every row to the longest description.
  const inputs = [
    '<!-- prettier-ignore -->',
    '| Input | Required | Default | Description |',
    '| --- | --- | --- | --- |',
    ...Object.entries(metadata.inputs).map(
      ([name, input]) =>
        `| \`${name}\` | ${input.required ? 'yes' : 'no'} | ${input.default === undefined ? '' : `\`${cell(input.default)}\``} | ${cell(input.description)} |`
    )
  ].join('\n')
  const outputs = [
    '<!-- prettier-ignore -->',
    '| Output | Description |',
    '| --- | --- |',
    ...Object.entries(metadata.outputs).map(([name, output]) => `| \`${name}\` | ${cell(output.description)} |`)
  ].join('\n')
  return { inputs, outputs }
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceSection(text: string, name: string, body: string): string {
  const pattern = new RegExp(`(<!-- ${name}:start -->)[\\s\\S]*?(<!-- ${name}:end -->)`)
  if (!pattern.test(text)) throw new Error(`README.md has no ${name} section markers`)
  return text.replace(pattern, (_, start: string, end: string) => `${start}\n${body}\n${end}`)
}

/** The README with fresh tables, laid out by Prettier as `npm run format` would. */
export async function renderReadme(): Promise<string> {
  const { inputs, outputs } = await renderTables()
  const readme = await readFile(README, 'utf8')
  const text = replaceSection(replaceSection(readme, 'inputs', inputs), 'outputs', outputs)
  return prettier.format(text, { ...(await prettier.resolveConfig(README)), filepath: README })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await writeFile(README, await renderReadme())
  console.log('README.md tables regenerated from action.yml')
}
