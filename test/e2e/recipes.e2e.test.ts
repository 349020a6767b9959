// Every recipe of the README and docs/, copied as a user copies it: its step's `with:` (expressions given the values a
// workflow would give them) run through the bundle against the simulated admin API and GitHub, on each event of its
// `on:`, must end as its page promises: green, in the mode it declares. A recipe that only passed actionlint could
// start a job on every push, send a bare prompt, or fail every `/docs`; and its concurrency group must name the issue
// or pull request of every event it listens to.
import { describe, expect, it } from 'vitest'
import { errorAnnotations } from '../support/expectations.ts'
import { type Recipe, readRecipes } from '../support/recipes.ts'
import { loopback } from './support/loopback.ts'
import { DOCS_PR, eventOf, ISSUE, PULL, type RecipeEvent, repository, WRITER } from './support/recipe-events.ts'
import { type ActionRun, bundleRunner } from './support/run-bundle.ts'

const KEY = 'mint_recipes_secret_key_0123'
const PROJECT = 'docs-project'
const PROMPT = 'Document the new /users endpoint'
const WAITED_FOR = 'job-started-elsewhere'

/** What the workflow gives each expression of a recipe's `with:`. */
const VALUES: Record<string, string> = {
  'vars.MINTLIFY_PROJECT_ID': PROJECT,
  'secrets.MINTLIFY_API_KEY': KEY,
  'secrets.DOCS_REPO_TOKEN': 'ghs_recipes_docs_token_0123',
  'inputs.prompt': PROMPT,
  'needs.start.outputs.job-id': WAITED_FOR
}

const recipes = await readRecipes()
const servers = loopback()
const run = bundleRunner({
  githubToken: 'ghs_recipes_token_value_0123',
  env: { GITHUB_REPOSITORY: 'acme/api' },
  inputs: { 'poll-interval': '100ms', 'max-poll-interval': '300ms' }
})

function inputsOf(recipe: Recipe): Record<string, string> {
  const value = (expression: string): string => {
    const known = VALUES[expression]
    if (known === undefined) throw new Error(`${recipe.name}: give \${{ ${expression} }} a value in VALUES`)
    return known
  }
  return Object.fromEntries(
    Object.entries(recipe.with).map(([input, text]) => [
      input,
      text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => value(expression))
    ])
  )
}

type Kind = 'pair' | 'batch' | 'sweep' | 'request' | 'wait' | 'single'

function kindOf(inputs: Record<string, string>): Kind {
  if (inputs['mode'] === 'pair' || inputs['mode'] === 'batch' || inputs['mode'] === 'sweep') return inputs['mode']
  if (inputs['command'] || inputs['label']) return 'request'
  return inputs['job-id'] && !inputs['prompt'] ? 'wait' : 'single'
}

/** The runs, in order, that show the recipe keeps its promise on an event of its `on:`. */
function eventsFor(kind: Kind, inputs: Record<string, string>, eventName: string, types: readonly string[]) {
  if (kind === 'pair') return [eventOf(eventName, 'opened'), eventOf(eventName, 'synchronize')]
  if (kind === 'request') {
    const asks = eventName.endsWith('comment') ? `${inputs['command']} document the retries option` : inputs['label']
    return [eventOf(eventName, eventName.endsWith('comment') ? 'created' : 'labeled', asks)]
  }
  return [eventOf(eventName, types[0] ?? 'opened', PROMPT)]
}

/** A step snippet has no `on:`: it runs on the change its words describe (`context: auto`), or by hand. */
function triggersOf(recipe: Recipe, inputs: Record<string, string>): [string, readonly string[]][] {
  if (recipe.on) return Object.entries(recipe.on)
  return [inputs['context'] === 'auto' ? ['pull_request', ['closed']] : ['workflow_dispatch', []]]
}

async function play(inputs: Record<string, string>, events: RecipeEvent[]) {
  const github = await servers.github(repository())
  const agent = await servers.agentApi({
    projectId: PROJECT,
    apiKey: KEY,
    run: { activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } },
    existing: [{ jobId: WAITED_FOR, activePolls: 1, final: { status: 'completed', prLink: DOCS_PR } }]
  })
  const runs: ActionRun[] = []
  for (const { eventName, event } of events) runs.push(await run(agent.server, inputs, { eventName, event, github }))
  return { runs, posts: agent.api.posts.map((post) => ({ what: post.what, prompt: String(post.prompt) })) }
}

type Played = Awaited<ReturnType<typeof play>>

/** What the page promises of each kind of recipe, once its runs are over. */
function expectPromiseKept(kind: Kind, inputs: Record<string, string>, eventName: string, played: Played): void {
  const { runs, posts } = played
  const last = runs.at(-1)?.outputs ?? {}
  const what = posts.map((post) => post.what)
  if (kind === 'pair') {
    expect(what).toEqual(['create', 'follow-up job-1'])
    expect(runs.map((one) => one.outputs['action-taken'])).toEqual(['started', 'followed-up'])
  } else if (kind === 'batch') {
    expect(what).toEqual(['create'])
    expect(posts[0]?.prompt).toMatch(/### Pull request #11 in[\s\S]*### Pull request #12 in/)
    expect(last).toMatchObject({ outcome: 'completed', 'batch-size': '2', 'batch-prs': '[11,12]' })
  } else if (kind === 'sweep') {
    expect(what).toEqual([])
    expect(last).toMatchObject({ outcome: 'skipped', 'action-taken': 'swept' })
  } else if (kind === 'request') {
    expect(what).toEqual(['create'])
    expect(last).toMatchObject({ outcome: 'completed', 'action-taken': 'commanded', 'requested-by': WRITER })
  } else if (kind === 'wait') {
    expect(what).toEqual([])
    expect(last).toMatchObject({ outcome: 'completed', 'job-id': WAITED_FOR, prLink: DOCS_PR })
  } else {
    expect(what).toEqual(['create'])
    expect(last['outcome']).toBe(inputs['wait'] === 'false' ? 'started' : 'completed')
    if (inputs['context'] === 'auto' && ['pull_request', 'push'].includes(eventName))
      expect(posts[0]?.prompt).toContain('## What changed')
  }
}

const cases = recipes.flatMap((recipe) => {
  const inputs = inputsOf(recipe)
  const kind = kindOf(inputs)
  return triggersOf(recipe, inputs).map(([eventName, types]) => ({
    name: `${recipe.name}, on ${eventName}`,
    inputs,
    kind,
    eventName,
    events: eventsFor(kind, inputs, eventName, types)
  }))
})

/** Several runs, and GitHub's writes spaced a second apart: a recipe takes seconds, more on a busy machine. */
const RECIPE_MS = 180_000

describe('every recipe of the README and docs/, run as written', { timeout: RECIPE_MS }, () => {
  it('finds them all: workflows and snippets, every kind', () => {
    expect(new Set(cases.map(({ kind }) => kind))).toEqual(
      new Set(['pair', 'batch', 'request', 'wait', 'single', 'sweep'])
    )
    expect(cases.length).toBeGreaterThanOrEqual(15)
  })

  it.each(cases.map((one) => [one.name, one] as const))('%s: ends as its page promises', async (_, one) => {
    const played = await play(one.inputs, one.events)
    for (const result of played.runs) {
      expect(result.stdout).not.toContain('"prompt" or "job-id" is required')
      expect(errorAnnotations(result), result.stdout).toEqual([])
      expect(result.exitCode, result.stdout).toBe(0)
    }
    expectPromiseKept(one.kind, one.inputs, one.eventName, played)
  })
})

/** A `${{ }}` of property paths joined by `||`, as GitHub evaluates it: the first that is set. */
function evaluate(text: string, context: unknown): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    for (const path of expression.split('||').map((part) => part.trim())) {
      if (!/^[\w.-]+$/.test(path)) throw new Error(`the test reads property paths joined by || only: ${expression}`)
      const value = path.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | null)?.[key], context)
      if ((typeof value === 'string' && value !== '') || typeof value === 'number') return String(value)
    }
    return ''
  })
}

describe("a recipe's concurrency group", () => {
  const grouped = recipes.filter((recipe) => recipe.on && recipe.group?.includes('${{'))

  it('names the issue or pull request of every event it listens to: runs on one of them go in turn', () => {
    expect(grouped.length).toBeGreaterThanOrEqual(4)
    const groups = grouped.flatMap((recipe) =>
      Object.entries(recipe.on ?? {}).map(([eventName, types]) => {
        const { event } = eventOf(eventName, types[0] ?? 'opened', '/docs')
        const number = eventName === 'issues' ? ISSUE : PULL
        const github = { event, event_name: eventName, repository: 'acme/api' }
        return { recipe: recipe.name, eventName, group: evaluate(recipe.group ?? '', { github }), number }
      })
    )
    expect(groups).toEqual(groups.map((group) => ({ ...group, group: `docs-${group.number}` })))
  })
})
