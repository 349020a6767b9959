// The recipes of the README and docs/ as a user copies them: every YAML block, and in each the steps that use this
// action, with what they set in `with:`, the workflow's triggers and the job's concurrency group, each named by its
// page and heading so that a failure says which recipe to fix.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse } from 'yaml'
import { ROOT } from '../../sim/run-action.ts'

/** How the README and docs/ name this action in `uses:`. */
export const ACTION = 'your-org/mintlify-agent-action'

export interface YamlBlock {
  /** `README.md #3`: the page and the block's place on it. */
  readonly name: string
  readonly page: string
  /** The heading the block stands under. */
  readonly heading: string
  readonly yaml: string
}

/** Event name to the activity types the workflow listens to (empty: all of them). */
export type Triggers = Readonly<Record<string, readonly string[]>>

export interface Recipe {
  /** `README.md › Ask for docs from a comment`, and the job when the workflow has several steps of this action. */
  readonly name: string
  readonly block: YamlBlock
  /** What follows `@` in `uses:`: the pinned commit. */
  readonly pin: string
  readonly with: Readonly<Record<string, string>>
  /** The workflow's `on:`; a step snippet has none (undefined). */
  readonly on: Triggers | undefined
  /** The job's `concurrency.group`, if it has one. */
  readonly group: string | undefined
}

/** The README, then the pages of docs/, in order. */
export async function readPages(): Promise<{ page: string; text: string }[]> {
  const docs = (await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md')).sort()
  const pages = ['README.md', ...docs.map((name) => `docs/${name}`)]
  return Promise.all(pages.map(async (page) => ({ page, text: await readFile(join(ROOT, page), 'utf8') })))
}

export function yamlBlocksOf(page: string, text: string): YamlBlock[] {
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match, index) => {
    const before = text.slice(0, match.index).match(/^#+ .*$/gm) ?? []
    const heading = (before.at(-1) ?? '').replace(/^#+\s*/, '')
    return { name: `${page} #${index + 1}`, page, heading, yaml: match[1] ?? '' }
  })
}

type Step = { uses?: unknown; with?: Record<string, unknown> }
type Job = { steps?: Step[]; concurrency?: { group?: string } | string }

function triggersOf(on: unknown): Triggers {
  if (typeof on === 'string') return { [on]: [] }
  if (Array.isArray(on)) return Object.fromEntries(on.map((name) => [String(name), []]))
  return Object.fromEntries(
    Object.entries((on ?? {}) as Record<string, { types?: string[] } | null>).map(([name, value]) => [
      name,
      value?.types ?? []
    ])
  )
}

/** The jobs of a workflow block, or a step snippet as one job without a name. */
function jobsOf(parsed: unknown): [string, Job][] {
  if (Array.isArray(parsed)) return [['', { steps: parsed as Step[] }]]
  return Object.entries(((parsed ?? {}) as { jobs?: Record<string, Job> }).jobs ?? {})
}

export function recipesOf(block: YamlBlock): Recipe[] {
  const parsed = parse(block.yaml) as unknown
  const on = Array.isArray(parsed) ? undefined : triggersOf((parsed as { on?: unknown }).on)
  const found = jobsOf(parsed).flatMap(([job, { steps = [], concurrency }]) =>
    steps
      .filter((step) => typeof step.uses === 'string' && step.uses.startsWith(`${ACTION}@`))
      .map((step) => ({ job, step, concurrency }))
  )
  return found.map(({ job, step, concurrency }) => {
    const group = typeof concurrency === 'string' ? concurrency : concurrency?.group
    return {
      name: `${block.page} › ${block.heading}${found.length > 1 ? ` (job ${job})` : ''}`,
      block,
      pin: String(step.uses).slice(ACTION.length + 1),
      with: Object.fromEntries(Object.entries(step.with ?? {}).map(([input, value]) => [input, String(value)])),
      on,
      group
    }
  })
}

/** Every step of this action in the README and docs/. */
export async function readRecipes(): Promise<Recipe[]> {
  const pages = await readPages()
  return pages.flatMap(({ page, text }) => yamlBlocksOf(page, text).flatMap(recipesOf))
}
