// The GitHub side's deadlines, tested with a short deadline passed in, against a loopback GitHub that accepts
// requests and never answers.
import { afterAll, describe, expect, it } from 'vitest'
import { openGitHubSide, type GitHubSide, type RunContext } from '../../../src/github/open-github.ts'
import { createHttp } from '../../../src/transport/dispatcher.ts'
import { type FakeGitHub, startFakeGitHub } from '../../../sim/github-api.ts'

const http = createHttp({ http: undefined, https: undefined, noProxy: '' })
const servers: FakeGitHub[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()))
  await http.close()
})

function sideOf(github: FakeGitHub): GitHubSide {
  servers.push(github)
  const run: RunContext = {
    eventName: 'issues',
    payload: { issue: { number: 12 } },
    apiUrl: github.url,
    serverUrl: 'https://github.com',
    runId: 7,
    runAttempt: 1
  }
  const transport = {
    dispatcher: http.dispatcher,
    userAgent: 'test',
    redact: (text: string) => text,
    cancelSignal: new AbortController().signal
  }
  const opened = openGitHubSide(
    {
      token: 'ghs_x',
      issueNumber: undefined,
      repository: 'acme/docs',
      transport,
      debug: () => undefined,
      warning: () => undefined
    },
    run
  )
  if (opened.kind !== 'ready') throw new Error(opened.reason)
  return opened.side
}

describe('openGitHubSide', () => {
  it('gives up on a GitHub that never answers at the deadline it is given, with a warning that names it', async () => {
    const side = sideOf(await startFakeGitHub({ intercept: () => true }))
    const started = performance.now()
    const write = {
      commentId: undefined,
      state: { job: 'job-5', requests: [] },
      view: { kind: 'active' },
      find: true,
      at: 0,
      cancelled: false
    } as const
    const written = await side.write(write, 300)
    expect(written).toEqual({
      kind: 'warning',
      warning: expect.stringContaining(
        `Could not comment on issue #12 in acme/docs: GitHub's API (${servers[0]?.url ?? ''}) did not finish answering within the deadline of 300ms.`
      ) as string
    })
    expect(performance.now() - started).toBeLessThan(3000)
  })

  it('throws a message naming the deadline when reading the comments takes longer', async () => {
    const side = sideOf(await startFakeGitHub({ intercept: () => true }))
    await expect(side.listTracked(300)).rejects.toThrow(
      /^Could not read the comments of issue #12 in acme\/docs: GitHub's API \(.*\) did not finish answering within the deadline of 300ms\.$/
    )
  })

  it("names the workflow run's page and attempt from the run's context", async () => {
    const side = sideOf(await startFakeGitHub())
    expect(side.run).toEqual({ id: '7', attempt: 1, url: 'https://github.com/acme/docs/actions/runs/7' })
    expect(side.target).toEqual({ owner: 'acme', repo: 'docs', number: 12, noun: 'issue' })
  })
})
