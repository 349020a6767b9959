// Every recipe pins a commit whose action.yml declares each input the recipe sets: a user who copies it gets a step
// that does what the page says, never one where GitHub only warns "Unexpected input" and the run does something else
// (v1.2.0 has no mode, no gates, no command). The pinned action.yml is read from git: a pin to a commit this
// repository does not hold fails (in a shallow clone too: the check needs the history).
import { execFileSync, spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { ROOT } from '../../sim/run-action.ts'
import { type Recipe, readRecipes } from '../support/recipes.ts'

/** v1.2.0's commit: a release before `mode`, the gates and the requests. */
const V1_2_0 = '4e33a776e831a7adbbb1986f0667869c2757fd8f'

const recipes = await readRecipes()

/** The inputs action.yml declares at `commit`, or why they cannot be read. */
function inputsAt(commit: string): Set<string> | string {
  if (!/^[0-9a-f]{40}$/.test(commit)) return `pins "${commit}", not a full commit SHA`
  const held = spawnSync('git', ['cat-file', '-e', `${commit}^{commit}`], { cwd: ROOT })
  if (held.status !== 0) {
    const shallow = execFileSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: ROOT, encoding: 'utf8' })
    const hint = shallow.trim() === 'true' ? ' (this clone is shallow: git fetch --unshallow)' : ''
    return `pins ${commit}, a commit this repository does not hold${hint}`
  }
  const text = execFileSync('git', ['show', `${commit}:action.yml`], { cwd: ROOT, encoding: 'utf8' })
  return new Set(Object.keys((parse(text) as { inputs?: Record<string, unknown> }).inputs ?? {}))
}

/** What is wrong with the recipe's pin, one line each: empty when its pinned release has every input it sets. */
function pinProblems(recipe: Recipe, commit = recipe.pin): string[] {
  const inputs = inputsAt(commit)
  if (typeof inputs === 'string') return [`${recipe.name} ${inputs}`]
  return Object.keys(recipe.with)
    .filter((input) => !inputs.has(input))
    .map((input) => `${recipe.name} sets "${input}", which action.yml at ${commit.slice(0, 12)} does not declare`)
}

describe("every recipe's pin", () => {
  it('is found: the README and docs/ hold steps of this action', () => {
    expect(recipes.length).toBeGreaterThanOrEqual(12)
  })

  it.each(recipes.map((recipe) => [recipe.name, recipe] as const))(
    '%s: the pinned commit declares every input the recipe sets',
    (_, recipe) => {
      expect(pinProblems(recipe)).toEqual([])
    }
  )

  it('names the recipe and the input when the pin is a release without them, and a commit git does not hold', () => {
    const pair = recipes.find((recipe) => recipe.with['mode'] === 'pair')
    expect(pair).toBeDefined()
    if (pair === undefined) return
    expect(pinProblems(pair, V1_2_0)).toContain(
      `${pair.name} sets "mode", which action.yml at ${V1_2_0.slice(0, 12)} does not declare`
    )
    const unknown = 'f'.repeat(40)
    expect(pinProblems(pair, unknown)).toEqual([
      expect.stringMatching(new RegExp(`^${pair.name} pins ${unknown}, a commit this repository does not hold`))
    ])
    expect(pinProblems(pair, 'v1')).toEqual([`${pair.name} pins "v1", not a full commit SHA`])
  })
})
