// Renders the inputs and outputs from action.yml, so that the docs cannot drift from it: in the README, the inputs by
// group with their defaults and the outputs' names; in docs/reference.md, both tables whole. `node scripts/action-docs.ts` rewrites
// them in place; the tests fail when they are stale.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as prettier from 'prettier'
import { readActionMetadata, ROOT } from '../sim/run-action.ts'

export const README = join(ROOT, 'README.md')
export const REFERENCE = join(ROOT, 'docs', 'reference.md')

const cell = (text: string): string => text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|')

/** How the README groups the inputs: each input of action.yml in one group, or the docs cannot be rendered. */
const INPUT_GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['The job', ['project-id', 'api-key', 'prompt', 'job-id', 'follow-up', 'wait', 'base-url']],
  ['What changed', ['context', 'context-limit', 'no-change-note']],
  [
    'Modes',
    [
      'mode',
      'pair-drafts',
      'merged-label',
      'merge-approved',
      'docs-token',
      'batch-branch',
      'batch-limit',
      'batch-since',
      'digest-label',
      'batch-notify',
      'docs-repository',
      'sweep-actions',
      'sweep-limit',
      'stale-after',
      'sweep-window'
    ]
  ],
  [
    'Gates and quotas',
    ['paths', 'paths-ignore', 'skip-labels', 'skip-authors', 'min-changed-lines', 'max-jobs-per-hour']
  ],
  ['Requests from comments and labels', ['command', 'command-permission', 'label', 'label-remove']],
  ['Reporting', ['comment', 'issue-number', 'github-token', 'check', 'check-name', 'docs-paths', 'preview', 'fail-on']],
  ['Grounding', ['grounding', 'grounding-rounds', 'grounding-ignore']],
  ['Time', ['timeout', 'poll-interval', 'max-poll-interval', 'request-timeout']]
]

/** `name` with its default (or `required`), as the README lists it. */
function listed(name: string, input: { default?: string; required?: boolean }): string {
  if (input.required) return `\`${name}\` (required)`
  return input.default === undefined || input.default === ''
    ? `\`${name}\``
    : `\`${name}\` (\`${cell(input.default)}\`)`
}

/**
 * The tables: in full for docs/reference.md; for the README (`short`), the inputs by group, each with its default,
 * and the outputs' names.
 */
export async function renderTables(short = false): Promise<{ inputs: string; outputs: string }> {
  const metadata = await readActionMetadata()
  if (short) {
    const grouped = INPUT_GROUPS.flatMap(([, names]) => names)
    const ungrouped = Object.keys(metadata.inputs).filter((name) => !grouped.includes(name))
    const unknown = grouped.filter((name) => !(name in metadata.inputs))
    if (ungrouped.length > 0 || unknown.length > 0) {
      throw new Error(`The README's input groups drift from action.yml: ${[...ungrouped, ...unknown].join(', ')}`)
    }
    const inputs = INPUT_GROUPS.map(
      ([group, names]) => `- **${group}**: ${names.map((name) => listed(name, metadata.inputs[name] ?? {})).join(', ')}`
    ).join('\n')
    const outputs = `- ${Object.keys(metadata.outputs)
      .map((name) => `\`${name}\``)
      .join(', ')}`
    return { inputs, outputs }
  }
  // Kept as written: Prettier would pad every row to the longest description.
  const inputs = [
    '<!-- prettier-ignore -->',
    '| Input | Required | Default | Description |',
    '| --- | --- | --- | --- |',
    ...Object.entries(metadata.inputs).map(
      ([name, input]) =>
        `| \`${name}\` | ${input.required ? 'yes' : 'no'} | ${input.default === undefined || input.default === '' ? '' : `\`${cell(input.default)}\``} | ${cell(input.description)} |`
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
