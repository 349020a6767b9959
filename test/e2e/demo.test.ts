// The README's demo command: the bundled action against the simulated API, shown as a user would see it.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { expect, inject, it } from 'vitest'
import { ROOT } from '../../sim/run-action.ts'

/** Runs `npm run demo` with these arguments against the bundle under test; its exit code and everything it printed. */
async function demo(...args: string[]): Promise<{ code: unknown; output: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'demo', 'run.ts'), ...args], {
    env: { PATH: process.env['PATH'] ?? '', ACTION_ENTRY: inject('bundleEntry') }
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const code = await new Promise((resolve) => child.on('close', resolve))
  return { code, output }
}

it('runs the demo of mode: pair: one job when the pull request opens, a follow-up per push with its own commits, a note when merged', async () => {
  const { code, output } = await demo('pair')
  expect(code, output).toBe(0)
  expect(output).toContain('outcome: completed, action-taken: started')
  expect(output.match(/outcome: completed, action-taken: followed-up/g)).toHaveLength(2)
  expect(output).toContain('outcome: skipped, action-taken: merged')
  expect(output).toMatch(
    /follow-up job-1:\n {2}### Pull request #42 in `acme\/api`: its new commits since the last prompt\n {2}### Commits \(1, newest first\)\n {2}- `2222222` `Add a backoff option`/
  )
  expect(output).toMatch(/follow-up job-1:\n[^\n]+\n[^\n]+\n {2}- `3333333` `Cap retries at 10`/)
  expect(output).toContain(
    'comment: The code pull request https://github.com/acme/api/pull/42, which this docs pull request documents, was merged.\nlabels: code merged'
  )
  expect(output).not.toContain('mint_demo_key_not_a_real_secret')
})

it('runs the demo of mode: batch: one job for the pull requests merged since, the gated one named; the next run spends none', async () => {
  const { code, output } = await demo('batch')
  expect(code, output).toBe(0)
  expect(output).toContain(
    'This batch covers 3 pull requests, oldest first: #51, #53, #54; and 1 commit pushed without a pull request'
  )
  expect(output).toContain('Left out by the gates, as nothing a reader of the docs would see: #52.')
  expect(output).toContain('```markdown\nAdd a backoff option, as the changelog says.\n```')
  expect(output).toContain('batch-prs: [51,53,54]')
  expect(output).toContain('Skipped: nothing new. No agent job was started.')
  expect(output).toContain('2 runs: 1 agent job for 4 merged pull requests; the second run spent none.')
  expect(output).not.toContain('mint_demo_key_not_a_real_secret')
})

it("runs the demo of command: a writer's /docs starts a job with eyes and a rocket, a reader is refused, a chat costs nothing", async () => {
  const { code, output } = await demo('command')
  expect(code, output).toBe(0)
  expect(output).toContain('outcome: completed, action-taken: commanded, requested-by: mona')
  expect(output).toContain('outcome: skipped, action-taken: refused, requested-by: visitor')
  expect(output).toContain('skip-reason: no command')
  expect(output).toContain('comment 501: eyes\ncomment 501: rocket\ncomment 502: confused')
  expect(output).toContain('3 comments, 0 failed; 1 request to the agent')
  expect(output).not.toContain('mint_demo_key_not_a_real_secret')
})

it('runs the demo: a merged pull request starts a job with what changed; it stays active, then completes with a pull request', async () => {
  const child = spawn(process.execPath, [join(ROOT, 'demo', 'run.ts')], {
    env: { PATH: process.env['PATH'] ?? '', ACTION_ENTRY: inject('bundleEntry') }
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const code = await new Promise((resolve) => child.on('close', resolve))
  expect(code, output).toBe(0)
  expect(output).toContain(
    '\nStarting an agent job in project "demo-project" with the prompt: Update the docs for the change below'
  )
  expect(output).toMatch(/\nAdded [\d,]+ characters of context \(limit 20,000\): 3 of 3 files listed/)
  expect(output).toContain('### Pull request #42 in `acme/api`, merged')
  expect(output).not.toContain('reviewer checklist')
  expect(output).toContain('\nStarted agent job "job-1".\n')
  expect(output).toContain('\nJob status: active\n')
  expect(output).toContain('job-id: job-1')
  // The grounding check, as a first recipe has it by default: the one name the agent made up is found out.
  expect(output).toContain('not found: client.resetRetries() (api/retries.mdx:9)')
  expect(output).toContain('grounding: ungrounded')
  expect(output).toMatch(/✅ \*\*Mintlify agent job completed\*\*: the agent opened a pull request/)
  expect(output).toMatch(
    /\nJob status: completed \(was active, after [\dhms ]+\); pull request https:\/\/github\.com\/acme\/docs\/pull\/128\n/
  )
  expect(output).toContain('prLink: https://github.com/acme/docs/pull/128')
  expect(output).toContain('\nPreview build: success (after')
  expect(output).toContain('preview-url: https://acme-mintlify-job-1.mintlify.app/')
  expect(output).toContain('🔍 **Preview ready**')
  expect(output).toContain('  Status: completed')
  expect(output).toMatch(/exit code 0: the step passed/)
  expect(output).not.toContain('::')
  expect(output).not.toContain('mint_demo_key_not_a_real_secret')
})
