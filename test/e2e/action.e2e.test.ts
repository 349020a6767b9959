// The bundle run as the runner runs it, against a loopback server that plays the admin API.
import { afterAll, describe, expect, it } from 'vitest'
import { playJob, type RunningServer, startServer, type JobStory } from '../../sim/admin-api.ts'
import { readActionMetadata } from '../../sim/run-action.ts'
import { runAction } from './support/run-bundle.ts'
import { type SteppedClock, steppedClock } from './support/triggers.ts'
import { errorAnnotations, expectKeyNeverShown } from '../support/expectations.ts'

const KEY = 'mint_e2e_secret_key_123'
const PR = 'https://github.com/acme/docs/pull/42'
const FAST = { 'poll-interval': '50ms', 'max-poll-interval': '200ms' }

const servers: RunningServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
})

async function waitFor(
  story: Partial<JobStory> & Pick<JobStory, 'final'>,
  inputs: Record<string, string> = {},
  clock?: SteppedClock
) {
  const job = playJob({ projectId: 'proj-1', jobId: 'job-1', apiKey: KEY, ...story })
  const server = await startServer(clock ? clock.jumpingAt(job) : job)
  servers.push(server)
  const run = await runAction({
    ...clock?.with(),
    inputs: { 'project-id': 'proj-1', 'job-id': 'job-1', 'api-key': KEY, 'base-url': server.url, ...FAST, ...inputs }
  })
  return { run, requests: server.requests }
}

describe('the bundled action', () => {
  it('waits through active polls, then hands on the pull request, setting exactly the outputs action.yml declares', async () => {
    const { run, requests } = await waitFor({ activePolls: 3, final: { status: 'completed', prLink: PR } })
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({
      status: 'completed',
      outcome: 'completed',
      prLink: PR,
      'pr-number': '42',
      'pr-repository': 'acme/docs'
    })
    expect(JSON.parse(run.outputs['job'] ?? '')).toMatchObject({ id: 'job-1', status: 'completed', prLink: PR })
    expect(requests).toHaveLength(4)
    expect(requests[0]).toMatchObject({ method: 'GET', url: '/v2/agent/proj-1/job/job-1' })
    expect(requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(requests[0]?.headers['user-agent']).toMatch(/^mintlify-agent-action\/\d+\.\d+\.\d+$/)
    expect(run.stdout).toContain('\nJob status: active\n')
    expect(run.stdout).toMatch(
      /\nJob status: completed \(was active, after [\dhms ]+\); pull request https:\/\/github\.com\/acme\/docs\/pull\/42\n/
    )
    expect(run.stdout).toContain(`completed after`)
    expect(run.summary).toContain('Mintlify agent job completed')
    expect(run.summary).toContain(`<a href="${PR}">`)
    expect(run.summary).toMatch(/<th>Polls<\/th><td>4<\/td>/)
    expect(run.summary).toContain('<th>Model</th><td>claude-sonnet-4-5</td>')
    expectKeyNeverShown(run, KEY)
    const { outputs } = await readActionMetadata()
    expect(Object.keys(run.outputs).sort()).toEqual(Object.keys(outputs).sort())
  })

  it('succeeds with an empty prLink when the agent changed nothing', async () => {
    const { run } = await waitFor({ final: { status: 'completed', prLink: null } })
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({ status: 'completed', prLink: '', 'pr-number': '' })
    expect(run.stdout).toContain(
      "opened no pull request (it changed nothing, or published directly, as the project's agent settings decide)"
    )
  })

  it('fails the step when the job fails, with the outputs already set', async () => {
    const { run } = await waitFor({ activePolls: 1, final: { status: 'failed' } })
    expect(run.exitCode).toBe(1)
    expect(run.outputs).toMatchObject({ status: 'failed', outcome: 'failed', prLink: '' })
    expect(errorAnnotations(run)).toEqual([expect.stringContaining('Agent job "job-1" failed after')])
    expect(run.summary).toContain('Mintlify agent job failed')
    expectKeyNeverShown(run, KEY)
  })

  // One fail-on as the bundle meets it; what each outcome fails by default and with fail-on is a row of
  // test/unit/report/verdict.test.ts.
  it('does not fail on a failed job when fail-on leaves it out', async () => {
    const { run } = await waitFor({ final: { status: 'failed' } }, { 'fail-on': 'timeout' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs['status']).toBe('failed')
  })

  it('stops at once on 404, naming the job and the project', async () => {
    const { run, requests } = await waitFor({ jobId: 'another-job', final: { status: 'completed' } })
    expect(run.exitCode).toBe(1)
    expect(requests).toHaveLength(1)
    expect(errorAnnotations(run)).toEqual([
      expect.stringMatching(
        /No agent job "job-1" was found in project "proj-1" \(HTTP 404: Agent job not found from GET http:\/\/127\.0\.0\.1:\d+\/v2\/agent\/proj-1\/job\/job-1\)\. Check job-id/
      )
    ])
    expect(run.outputs).toMatchObject({ status: '', outcome: 'error', job: '' })
    expectKeyNeverShown(run, KEY)
  })

  it('stops at once on 401, saying the key was refused and where keys are made', async () => {
    const { run, requests } = await waitFor({ apiKey: 'mint_the_right_one', final: { status: 'completed' } })
    expect(run.exitCode).toBe(1)
    expect(requests).toHaveLength(1)
    const [error] = errorAnnotations(run)
    expect(error).toContain('The API refused the key (HTTP 401: Invalid API key)')
    expect(error).toContain("dashboard's API keys page")
    expectKeyNeverShown(run, KEY)
  })

  it('times out with status active, and fails the step', async () => {
    // The first poll moves the step's clock past its timeout.
    const clock = steppedClock()
    const { run, requests } = await waitFor({ activePolls: 1000, final: { status: 'completed' } }, clock.inputs, clock)
    expect(run.exitCode).toBe(1)
    expect(run.outputs).toMatchObject({ status: 'active', outcome: 'timeout', prLink: '' })
    const polls = `${requests.length} ${requests.length === 1 ? 'poll' : 'polls'}`
    expect(errorAnnotations(run)).toEqual([
      expect.stringMatching(
        new RegExp(`was still active when the timeout of 10m ran out after [\\dhms ]+ \\(${polls}\\)`)
      )
    ])
    expect(run.summary).toContain('Timed out waiting')
  })

  // An invalid input as the bundle meets it: careless-inputs.e2e.test.ts.
})
