// Every action a workflow uses names a full commit SHA, with its version in a comment (`# v4.2.2`) for readers and
// for Dependabot, which moves both. A tag or a branch can be moved to other code; a commit cannot. The workflows and
// steps the README and docs/ show (this action's own `uses:` included) follow the same rule: users copy them.
import { isScalar, parseDocument, visit, type Document } from 'yaml'
import { expect, it } from 'vitest'
import { documentedYaml, workflowFiles } from './workflow-files.ts'

interface Use {
  /** Where it is, for the message: `.github/workflows/ci.yml:15`. */
  where: string
  ref: string
  comment: string
}

function usesOf(path: string, text: string, document: Document): Use[] {
  const found: Use[] = []
  visit(document, {
    Pair(_, pair) {
      if (!isScalar(pair.key) || pair.key.value !== 'uses') return
      const value = pair.value
      const ref = isScalar(value) ? String(value.value) : JSON.stringify(value)
      const offset = isScalar(value) ? (value.range?.[0] ?? 0) : 0
      const line = text.slice(0, offset).split('\n').length
      const comment = isScalar(value) ? (value.comment ?? '').trim() : ''
      found.push({ where: `${path}:${line}`, ref, comment })
    }
  })
  return found
}

/** What is wrong with one `uses:`, or undefined when it is pinned. */
function pinProblem({ ref, comment }: Pick<Use, 'ref' | 'comment'>): string | undefined {
  if (ref.startsWith('./')) return undefined
  if (ref.startsWith('docker://'))
    return /@sha256:[0-9a-f]{64}$/.test(ref) ? undefined : `${ref} is not pinned to an image digest (@sha256:...)`
  const pinned = /^[\w.-]+\/[\w.-]+(\/[^@\s]+)?@([0-9a-f]{40})$/.exec(ref)
  if (!pinned) return `${ref} is not pinned to a full 40-character commit SHA`
  if (!/^v\d+\.\d+\.\d+$/.test(comment))
    return `${ref} has no version comment ("# vX.Y.Z") after it${comment ? ` (it has "# ${comment}")` : ''}`
  return undefined
}

it('pins every action in every workflow to a full commit SHA, its version in a comment', async () => {
  const files = await workflowFiles()
  expect(files.length).toBeGreaterThanOrEqual(3)
  const uses = files.flatMap(({ path, text, document }) => usesOf(path, text, document))
  expect(uses.filter(({ ref }) => !ref.startsWith('./')).length).toBeGreaterThan(0)
  const problems = uses.flatMap((use) => {
    const problem = pinProblem(use)
    return problem === undefined ? [] : [`${use.where}: ${problem}`]
  })
  expect(problems).toEqual([])
})

it('pins every action the README and docs/ show, this one included, as the README recommends', async () => {
  const blocks = await documentedYaml()
  const uses = blocks.flatMap(({ path, text, document }) => usesOf(path, text, document))
  expect(uses.filter(({ ref }) => ref.startsWith('your-org/mintlify-agent-action@')).length).toBeGreaterThanOrEqual(10)
  const problems = uses.flatMap((use) => {
    const problem = pinProblem(use)
    return problem === undefined ? [] : [`${use.where}: ${problem}`]
  })
  expect(problems).toEqual([])
})

it('pins each action to the same commit and version in every workflow', async () => {
  const pins = new Map<string, Set<string>>()
  for (const { path, text, document } of await workflowFiles())
    for (const { ref, comment } of usesOf(path, text, document)) {
      const [action = '', sha = ''] = ref.split('@')
      if (ref.startsWith('./') || ref.startsWith('docker://')) continue
      const repository = action.split('/').slice(0, 2).join('/')
      pins.set(repository, (pins.get(repository) ?? new Set()).add(`${sha} # ${comment}`))
    }
  const differing = [...pins]
    .filter(([, versions]) => versions.size > 1)
    .map(([name, versions]) => [name, [...versions]])
  expect(differing).toEqual([])
})

it.each([
  ['a major tag', 'uses: actions/checkout@v4', 'actions/checkout@v4 is not pinned to a full 40-character commit SHA'],
  ['a branch', 'uses: actions/checkout@main', 'is not pinned to a full 40-character commit SHA'],
  ['a short SHA', 'uses: actions/checkout@11bd719 # v4.2.2', 'is not pinned to a full 40-character commit SHA'],
  ['a SHA without its version', `uses: actions/checkout@${'a'.repeat(40)}`, 'has no version comment'],
  ['a SHA with only a major version', `uses: actions/checkout@${'a'.repeat(40)} # v4`, 'it has "# v4"'],
  ['a Docker tag', 'uses: docker://alpine:3', 'is not pinned to an image digest']
])('refuses %s', (_, line, message) => {
  const text = `jobs:\n  a:\n    steps:\n      - ${line}\n`
  const [use] = usesOf('x.yml', text, parseDocument(text))
  expect(use).toBeDefined()
  expect(pinProblem(use as Use)).toContain(message)
})

it.each([
  ['a local action', 'uses: ./'],
  ['a pinned action', `uses: actions/checkout@${'a'.repeat(40)} # v4.2.2`],
  ['a pinned action in a folder', `uses: github/codeql-action/init@${'b'.repeat(40)} # v4.36.2`],
  ['a Docker digest', `uses: docker://alpine@sha256:${'c'.repeat(64)}`]
])('accepts %s', (_, line) => {
  const text = `jobs:\n  a:\n    steps:\n      - ${line}\n`
  const [use] = usesOf('x.yml', text, parseDocument(text))
  expect(pinProblem(use as Use)).toBeUndefined()
})
