// The key quoted where the runner's masking cannot find it: in a prompt (a pasted command line) that the log shortens,
// the summary escapes and the tracking comment records; and in an answer that quotes it as JSON, escaped. Each is
// redacted before it is shortened or escaped, so no form of it is shown.
import { describe, expect, it } from 'vitest'
import { jobBody, type Respond, sendJson } from '../../sim/admin-api.ts'
import { forMarkdown } from '../../src/text/untrusted.ts'
import { expectKeyNeverShown } from '../support/expectations.ts'
import { loopback } from './support/loopback.ts'
import { bundleRunner } from './support/run-bundle.ts'

/** A key with a quote and a backslash, which JSON escapes and the summary's HTML escapes otherwise. */
const KEY = 'mint_q"uo\\te_secret_0123'
const JSON_ESCAPED = JSON.stringify(KEY).slice(1, -1)
/** A prompt whose first line the log cuts inside the key. */
const PROMPT = `${'p'.repeat(88)} ${KEY} with curl -H "Authorization: Bearer ${KEY}"\nand a second line`

const servers = loopback()
const run = bundleRunner({ inputs: { 'project-id': 'proj', 'api-key': KEY, 'poll-interval': '50ms' } })

/** Every form of the key that a reader could see: as is, a part of it, JSON-escaped, HTML-escaped. */
function formsOf(key: string): string[] {
  return [key, key.slice(0, 10), JSON_ESCAPED, forMarkdown(key), forMarkdown(key.slice(0, 10))]
}

function markerState(body: string): string {
  const payload = /^<!-- \S+ \S+ (\S+) -->/.exec(body)?.[1] ?? ''
  return Buffer.from(payload, 'base64url').toString('utf8')
}

describe('the key quoted in a prompt', () => {
  it('is sent as written, and shown nowhere: not in the log, the summary, the comment or its record', async () => {
    const { api, server } = await servers.agentApi({ projectId: 'proj', apiKey: KEY })
    const github = await servers.github()
    const result = await run(
      server,
      { prompt: PROMPT, comment: 'true' },
      { github, eventName: 'issues', event: { action: 'opened', issue: { number: 12 } } }
    )
    expect(result.outputs).toMatchObject({ outcome: 'completed', 'job-id': 'job-1' })
    expect(api.posts[0]?.prompt).toBe(PROMPT)
    const logLines = result.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
    const bodies = github.comments.map((comment) => comment.body)
    const records = bodies.map(markerState)
    for (const form of formsOf(KEY)) {
      expect(logLines.filter((line) => line.includes(form))).toEqual([])
      expect(result.summary).not.toContain(form)
      expect(bodies.filter((body) => body.includes(form))).toEqual([])
      expect(records.filter((record) => record.includes(form))).toEqual([])
    }
    expect(result.stdout).toContain(`with the prompt: ${'p'.repeat(88)} *** with`)
    expect(bodies.at(-1)).toContain(`- Prompt: \`${'p'.repeat(88)} *** with`)
    expectKeyNeverShown(result, KEY)
  })
})

describe('the key echoed in an answer', () => {
  it('is not shown JSON-escaped in the error details', async () => {
    const echo: Respond = (_req, res, index) =>
      index === 0
        ? sendJson(res, 500, { error: 'Internal error', details: { authorization: `Bearer ${KEY}` } })
        : sendJson(
            res,
            200,
            jobBody(
              { projectId: 'proj', jobId: 'job-2', apiKey: KEY, final: { status: 'completed' } },
              'completed',
              null
            )
          )
    const server = await servers.serve(echo)
    const result = await run(server, { 'job-id': 'job-2' })
    expect(result.outputs).toMatchObject({ outcome: 'completed' })
    expect(result.stdout).toContain('Poll failed: HTTP 500: Internal error (details: {"authorization":"Bearer ***"})')
    expect(result.stdout).not.toContain(JSON_ESCAPED)
    expectKeyNeverShown(result, KEY)
  })
})
