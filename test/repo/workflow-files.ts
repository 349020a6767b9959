// The repository's workflow files, read and parsed for the tests in test/repo/.
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
