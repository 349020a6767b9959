// The repository's workflow files, and the workflows and steps the README and docs/ show, read and parsed for the
// tests in test/repo/.
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Document, parseDocument } from 'yaml'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const WORKFLOWS = join(ROOT, '.github', 'workflows')

export interface WorkflowFile {
  /** The path from the repository's root, as a message names it: `.github/workflows/ci.yml`. */
  path: string
  text: string
  document: Document
}

export async function workflowFiles(): Promise<WorkflowFile[]> {
  const names = (await readdir(WORKFLOWS)).filter((name) => /\.ya?ml$/.test(name)).sort()
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(join(WORKFLOWS, name), 'utf8')
      return { path: `.github/workflows/${name}`, text, document: parseDocument(text) }
    })
  )
}

export interface DocumentedYaml extends WorkflowFile {
  /** A whole workflow (it has `jobs:`), rather than steps to paste into one. */
  workflow: boolean
}

/** Every YAML block of the README and docs/: the workflows and steps users copy. `path` is `docs/examples.md #3`. */
export async function documentedYaml(): Promise<DocumentedYaml[]> {
  const docs = (await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)
  const pages = await Promise.all(
    ['README.md', ...docs.sort()].map(async (page) => ({ page, text: await readFile(join(ROOT, page), 'utf8') }))
  )
  return pages.flatMap(({ page, text }) =>
    [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match, index) => {
      const yaml = match[1] ?? ''
      return {
        path: `${page} #${index + 1}`,
        text: yaml,
        document: parseDocument(yaml),
        workflow: /^jobs:/m.test(yaml)
      }
    })
  )
}
