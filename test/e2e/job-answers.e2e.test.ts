// How the step reads the job the admin API answers, liberal in what it reads and strict in what it concludes: status
// words in any case, a body labelled with another Content-Type, a descriptive field of the wrong type, a byte-order
// mark, line breaks, another job's answer; and the prLink it hands on, with pr-number and pr-repository only for a
// pull request on GitHub. The bundle run as the runner runs it, against loopback servers.
import type { ServerResponse } from 'node:http'
import { describe, expect, it } from 'vitest'
import { jobBody, sendJson } from '../../sim/admin-api.ts'
import { errorAnnotations } from '../support/expectations.ts'
import { completed, JOB_FIVE, runJobFive } from './support/job-five.ts'
import { loopback } from './support/loopback.ts'
import { steppedClock } from './support/triggers.ts'

const { STORY, PR } = JOB_FIVE

const { serve } = loopback()

const run = runJobFive

describe('liberal in what it reads, strict in what it concludes', () => {
  // One as the bundle meets it; other spellings are rows of test/unit/admin-api/agent-job.test.ts.
  it.each([' COMPLETED '])('ends the wait on status %j', async (status) => {
    const server = await serve((_req, res) => sendJson(res, 200, { ...jobBody(STORY, 'completed', PR), status }))
    const result = await run(server, { timeout: '3s' })
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(1)
    expect(result.outputs).toMatchObject({ status: 'completed', outcome: 'completed', prLink: PR })
  })

  it('judges an answer by its body, not its Content-Type: a start and its job labelled text/html are read', async () => {
    const labelled = (res: ServerResponse, status: number, body: unknown): void => {
      const text = JSON.stringify(body)
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(text) })
      res.end(text)
    }
    const server = await serve((req, res) =>
      req.method === 'POST'
        ? labelled(res, 201, jobBody(STORY, 'active', null))
        : labelled(res, 200, jobBody(STORY, 'completed', PR))
    )
    const result = await run(server, { 'job-id': '', prompt: 'Document the new endpoint', timeout: '30s' })
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-5', prLink: PR })
    expect(result.stdout).not.toContain('does not look like the Mintlify admin API')
  })

  it('ignores a descriptive field of the wrong type, with a debug line, instead of retrying', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { ...jobBody(STORY, 'completed', PR), model: 4 }))
    const result = await run(server, { timeout: '3s' }, { env: { RUNNER_DEBUG: '1' } })
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(1)
    expect(result.stdout).toContain('left out "model" (a number): not the type the API documents')
  })

  it('accepts a UTF-8 byte-order mark before the JSON', async () => {
    const server = await serve((_req, res) => {
      const text = `\uFEFF${JSON.stringify(jobBody(STORY, 'completed', PR))}`
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text)
    })
    const result = await run(server, { timeout: '3s' })
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(1)
  })

  it('keeps every output on one line, whatever line breaks the API puts in its answer', async () => {
    // The first poll moves the step's clock past its timeout.
    const clock = steppedClock()
    const server = await serve(
      clock.jumpingAt((_req, res) =>
        sendJson(res, 200, {
          ...jobBody(STORY, 'completed', PR),
          status: 'still\nthinking\u2028::error::forged',
          model: 'claude\u2028next\u0085line'
        })
      )
    )
    const result = await run(server, { ...clock.inputs, 'fail-on': 'failed' }, clock.with())
    expect(result.outputs['outcome']).toBe('timeout')
    // Not one lower-case word: no status output at all, and the log shows it on one line.
    expect(result.outputs['status']).toBe('')
    expect(result.stdout).toContain('still thinking ::error::forged')
    const job = result.outputs['job'] ?? ''
    expect(job).not.toMatch(/[\n\r\u0085\u2028\u2029]/)
    expect(job).toContain('claude\\u2028next\\u0085line')
    expect(JSON.parse(job)).toMatchObject({ model: 'claude\u2028next\u0085line' })
    expect(result.stdout).not.toMatch(/^::error::forged/m)
  })

  it("retries a 200 that is another job's answer, and takes the job's own answer after it", async () => {
    const server = await serve((_req, res, index) =>
      index === 0 ? sendJson(res, 200, { ...jobBody(STORY, 'completed', PR), id: 'job-6' }) : completed(res)
    )
    const result = await run(server)
    expect(result.exitCode).toBe(0)
    expect(server.requests).toHaveLength(2)
    expect(result.outputs).toMatchObject({ outcome: 'completed', status: 'completed', prLink: PR })
    expect(result.stdout).toContain('"id" is "job-6", not "job-5" (another job\'s answer)')
  })

  it("names another job's answer when it persists to the timeout", async () => {
    const clock = steppedClock()
    const server = await serve(
      clock.jumpingAt((_req, res) => sendJson(res, 200, { ...jobBody(STORY, 'completed', PR), id: 'job-6' }))
    )
    const result = await run(server, clock.inputs, clock.with())
    expect(result.exitCode).toBe(1)
    expect(result.outputs).toMatchObject({ outcome: 'timeout', status: '', prLink: '' })
    expect(errorAnnotations(result)[0]).toContain('"id" is "job-6", not "job-5" (another job\'s answer)')
  })
})

describe('prLink', () => {
  it('with a malformed percent-escape never crashes the step', async () => {
    const link = 'https://github.com/acme/d%E0%A4%A/pull/5'
    const server = await serve((_req, res) => completed(res, link))
    const result = await run(server)
    expect(result.exitCode).toBe(0)
    expect(result.outputs).toMatchObject({ outcome: 'completed', prLink: link, 'pr-number': '', 'pr-repository': '' })
  })

  // One as the bundle meets it; another host, a number too large and the rest are rows of
  // test/unit/admin-api/agent-job.test.ts.
  it.each([['a look-alike host', 'https://github.com.evil.example/octo/docs/pull/17']])(
    'gives no pr-number or pr-repository for %s',
    async (_, link) => {
      const server = await serve((_req, res) => completed(res, link))
      const result = await run(server)
      expect(result.exitCode).toBe(0)
      expect(result.outputs).toMatchObject({ prLink: link, 'pr-number': '', 'pr-repository': '' })
    }
  )

  it("gives pr-number and pr-repository on the runner's own GitHub Enterprise Server", async () => {
    const link = 'https://ghes.corp.example/org/handbook/pull/77'
    const server = await serve((_req, res) => completed(res, link))
    const result = await run(server, {}, { env: { GITHUB_SERVER_URL: 'https://ghes.corp.example' } })
    expect(result.outputs).toMatchObject({ prLink: link, 'pr-number': '77', 'pr-repository': 'org/handbook' })
  })
})
