// Time on a runner: its wall clock may jump (an NTP correction) or be off, and neither may move a deadline or a wait.
// Deadlines and durations run on a monotonic clock; a Retry-After date is read against the answer's own Date. A
// preload shifts the action's wall clock (test/fixtures/wall-clock.mjs): from the start, or on SIGUSR2.
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { jobBody, sendJson } from '../../sim/admin-api.ts'
import { simulateAgentApi } from '../../sim/agent-api.ts'
import { errorAnnotations } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'

const KEY = 'mint_time_secret_key_0123'
const HOUR_MS = 3_600_000
const WALL_CLOCK = ['--import', join(import.meta.dirname, '..', 'fixtures', 'wall-clock.mjs')]
const STORY = { projectId: 'proj', jobId: 'job-4', apiKey: KEY, final: { status: 'completed' } }

const servers = loopback()
const run = bundleRunner({
  inputs: {
    'project-id': 'proj',
    'job-id': 'job-4',
    'api-key': KEY,
    'poll-interval': '100ms',
    'max-poll-interval': '400ms'
  }
})

/**
 * A bundle timing itself on the wall clock would poll on for an hour: past more polls than the timeout holds at the
 * fastest schedule (4 s at 90 ms, about 45), it is killed, so the test fails instead of waiting.
 */
function killedPast(polls: number, requests: readonly unknown[], child: ChildProcess): void {
  const watch = setInterval(() => {
    if (requests.length > polls) child.kill('SIGKILL')
  }, 10)
  child.on('exit', () => clearInterval(watch))
}

describe('the wall clock jumping', () => {
  it.each([
    ['back an hour', -HOUR_MS],
    ['forward an hour', HOUR_MS]
  ])('%s mid-wait moves neither the deadline nor the time waited', async (_, jump) => {
    let step: ChildProcess | undefined
    // The first poll moves the clock before it is answered: mid-wait, however slow the machine.
    const server = await servers.serve((_req, res, index) => {
      if (index === 0) step?.kill('SIGUSR2')
      sendJson(res, 200, jobBody(STORY, 'active', null))
    })
    const result = await run(
      server,
      { timeout: '4s' },
      {
        nodeArgs: WALL_CLOCK,
        env: { WALL_CLOCK_JUMP_MS: String(jump) },
        onSpawn: (child) => {
          step = child
          killedPast(100, server.requests, child)
        }
      }
    )
    expect(result.stderr).toContain('wall clock moved by')
    expect(result.signal).toBeNull()
    expect(result.outputs).toMatchObject({ outcome: 'timeout', status: 'active' })
    // The time waited is told as the monotonic clock counted it: at least the timeout, and not an hour more.
    const waited = /was still active when the timeout of 4s ran out after (?:(\d+)m )?(\d+)s \(\d+ polls?\)/.exec(
      errorAnnotations(result)[0] ?? ''
    )
    expect(waited, errorAnnotations(result)[0]).not.toBeNull()
    expect(Number(waited?.[1] ?? 0) * 60 + Number(waited?.[2])).toBeGreaterThanOrEqual(4)
  })
})

describe('Retry-After as an HTTP date', () => {
  it("is read against the answer's Date, so a runner an hour behind still waits seconds, then starts the job", async () => {
    const api = simulateAgentApi({ projectId: 'proj', apiKey: KEY })
    let limited = false
    // The API's clock is right; its first answer to the start is a rate limit, to be waited out for 2 seconds.
    const server = await servers.serve((req, res, index) => {
      if (req.method === 'POST' && !limited) {
        limited = true
        const now = Date.now()
        res
          .writeHead(429, { date: new Date(now).toUTCString(), 'retry-after': new Date(now + 2000).toUTCString() })
          .end()
        return
      }
      return api.respond(req, res, index)
    })
    const result = await run(
      server,
      { 'job-id': '', prompt: 'Document it', timeout: '30s' },
      { nodeArgs: WALL_CLOCK, env: { WALL_CLOCK_OFFSET_MS: String(-HOUR_MS) } }
    )
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1' })
    expect(result.stdout).toMatch(/Could not start the agent job: rate limited \(HTTP 429\)\. .*sent again in [1-3]s\./)
    expect(api.posts.map((post) => post.what)).toEqual(['create'])
  })
})
