// The check run (check: true, and mode: pair's): made once, even when GitHub's create answered 502 after it made the
// check run and the lookup for it fails too; found and ended, not left in progress; and not left in progress when the
// runner cancels in the middle of the wait. Against the simulated admin API and GitHub.
import { describe, expect, it } from 'vitest'
import { codeRepository, HEAD, pullEvent, RUNS_MS } from './support/code-repository.ts'
import { warningAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { once } from './support/triggers.ts'

const KEY = 'mint_check_run_secret_key_0123'
const TOKEN = 'ghs_check_run_token_value_0123'

const servers = loopback()
const { run, world } = codeRepository(servers, { key: KEY, token: TOKEN })

describe('a check run', { timeout: RUNS_MS }, () => {
  it('whose create answered 502 after GitHub made it is found and ended, not left in progress, nor made twice', async () => {
    let failed = false
    const { github, server } = await world({
      pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] },
      failAfterWriting: (call) => {
        if (failed || call !== 'POST /repos/acme/api/check-runs') return undefined
        failed = true
        return 502
      }
    })
    const result = await run(
      server,
      { prompt: 'Document the change', check: 'true' },
      { eventName: 'pull_request', event: pullEvent('opened'), github }
    )
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(github.checkRuns.map((check) => [check.headSha, check.history])).toEqual([
      [HEAD, ['in_progress', 'completed/success']]
    ])
    expect(warningAnnotations(result)).toEqual([])
  })
})

describe('a check run whose create answered 502 after GitHub made it', () => {
  it('is never made a second time when the lookup for it fails too', async () => {
    let failed = false
    const { github, api, server } = await world({
      pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] },
      failAfterWriting: (call) => {
        if (failed || call !== 'POST /repos/acme/api/check-runs') return undefined
        failed = true
        return 502
      },
      failReads: { [`GET /repos/acme/api/commits/${HEAD}/check-runs`]: 502 }
    })
    const result = await run(
      server,
      { prompt: 'Document the change', check: 'true' },
      { eventName: 'pull_request', event: pullEvent('opened'), github }
    )
    expect(result.outputs['outcome'], result.stdout).toBe('completed')
    expect(api.posts).toHaveLength(1)
    expect(github.calls.filter((call) => call === 'POST /repos/acme/api/check-runs')).toHaveLength(1)
    expect(github.calls.filter((call) => call.startsWith('GET /repos/acme/api/commits/'))).not.toEqual([])
  })
})

describe("mode: pair's check run when the runner cancels", () => {
  // After the runner's SIGINT the step has seconds to finish; after a SIGTERM alone, one (the runner's SIGKILL follows
  // 2.5 s later), and whether a GitHub write fits in a second is the machine's speed: that schedule is proven on a
  // simulated clock in test/unit/runner/environment.test.ts.
  it.each(['SIGINT'] as const)('is not left in progress after %s in the middle of the wait', async (signal) => {
    const { github, api, server } = await world(
      { pullFiles: { 7: [{ filename: 'src/retry.ts', status: 'modified', additions: 3, deletions: 1 }] } },
      Infinity
    )
    const result = await run(
      server,
      { mode: 'pair', prompt: 'Keep the docs in step.' },
      {
        eventName: 'pull_request',
        event: pullEvent('opened'),
        github,
        onSpawn: (child) => {
          once(
            () => api.posts.length > 0 && github.checkRuns.length > 0,
            () => child.kill(signal)
          )
        }
      }
    )
    expect(result.outputs['outcome'], result.stdout).toBe('cancelled')
    expect(
      github.checkRuns.map((check) => check.status),
      result.stdout
    ).toEqual(['completed'])
  })
})
