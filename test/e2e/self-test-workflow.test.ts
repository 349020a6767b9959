// Replays .github/workflows/self-test.yml here: each `uses: ./` step runs the bundled action with the step's
// `with:` (the simulated API on a free port instead of 8787), and each check step runs its own shell script
// with the outputs and outcomes the runner would substitute. So the self-test cannot drift from the action.
import { spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { parse } from 'yaml'
import { type RunningServer, startServer } from '../../sim/admin-api.ts'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import { ROOT } from '../../sim/run-action.ts'
import { runAction } from './support/run-bundle.ts'
import { SELF_TEST_JOBS } from '../../sim/self-test-jobs.ts'

interface Step {
  id?: string
  name?: string
  uses?: string
  run?: string
  with?: Record<string, string | number | boolean>
  env?: Record<string, string>
  'continue-on-error'?: boolean
}

let server: RunningServer
beforeAll(async () => {
  server = await startServer(
    simulateAgentApi({ projectId: 'self-test', apiKey: 'mint_self_test_key', existing: SELF_TEST_JOBS }).respond
  )
})
afterAll(async () => {
  await server.close()
})

it('passes the self-test workflow, step by step, as the runner would run it', async () => {
  const workflow = parse(await readFile(join(ROOT, '.github', 'workflows', 'self-test.yml'), 'utf8')) as {
    jobs: Record<string, { steps: Step[] }>
  }
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps)
  const results: Record<string, { outcome: string; outputs: Record<string, string> }> = {}
  const expand = (text: string): string =>
    text.replace(
      /\$\{\{\s*steps\.([\w-]+)\.(outcome|outputs\.([\w-]+))\s*\}\}/g,
      (_, id: string, what: string, output?: string) => {
        const result = results[id]
        if (!result) throw new Error(`the workflow refers to step "${id}" before it ran`)
        return what === 'outcome' ? result.outcome : (result.outputs[output ?? ''] ?? '')
      }
    )

  let actionSteps = 0
  let checkSteps = 0
  for (const step of steps) {
    if (step.uses === './') {
      actionSteps += 1
      const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([name, value]) => [name, String(value)]))
      inputs['base-url'] = server.url
      const run = await runAction({ inputs })
      const outcome = run.exitCode === 0 ? 'success' : 'failure'
      if (step.id) results[step.id] = { outcome, outputs: run.outputs }
      if (outcome === 'failure' && !step['continue-on-error'])
        throw new Error(`step "${step.name ?? ''}" failed:\n${run.stdout}`)
    } else if (step.run && step.env && Object.values(step.env).some((value) => value.includes('steps.'))) {
      checkSteps += 1
      const env = Object.fromEntries(Object.entries(step.env).map(([name, value]) => [name, expand(value)]))
      const check = spawnSync('bash', ['-eo', 'pipefail', '-c', step.run], {
        env: { ...process.env, ...env },
        encoding: 'utf8'
      })
      expect(check.status, `step "${step.name ?? ''}": ${check.stderr}`).toBe(0)
    }
  }
  expect(actionSteps).toBe(3)
  expect(checkSteps).toBe(3)
  expect(results['failed']?.outcome).toBe('failure')
})
