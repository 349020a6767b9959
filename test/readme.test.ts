import { readFile } from 'node:fs/promises'
import { expect, it } from 'vitest'
import { README, renderReadme } from '../scripts/action-docs.ts'
import { readActionMetadata } from '../sim/run-action.ts'

it("keeps the README's inputs and outputs tables identical to action.yml (run `npm run docs` to regenerate)", async () => {
  expect(await readFile(README, 'utf8')).toBe(await renderReadme())
})

it('documents in the README every output a workflow example uses', async () => {
  const readme = await readFile(README, 'utf8')
  const { outputs } = await readActionMetadata()
  const used = [...readme.matchAll(/steps\.wait\.outputs\.([\w-]+)/g)].map((match) => match[1])
  expect(used.length).toBeGreaterThan(0)
  for (const name of used) expect(Object.keys(outputs)).toContain(name)
})
