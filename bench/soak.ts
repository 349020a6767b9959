// Memory over thousands of polls: the action's own client and poller against a loopback server, in this
// process, with the heap measured after a full garbage collection early on and again at the end.
import { createAdminApi } from '../src/admin-api/client.ts'
import { openTransport } from '../src/transport/transport.ts'
import { waitForJob } from '../src/wait/job-wait.ts'
import { jobBody, sendJson, startServer } from '../sim/admin-api.ts'
import { settingsOf } from '../sim/settings.ts'

export interface SoakFigures {
  readonly polls: number
  readonly heapEarlyBytes: number
  readonly heapLateBytes: number
  readonly rssEarlyBytes: number
  readonly rssLateBytes: number
}

export async function measureSoak(polls = 5000, early = 500): Promise<SoakFigures> {
  const collect = (globalThis as { gc?: () => void }).gc
  if (!collect) throw new Error('run the benchmark with node --expose-gc')
  const story = { projectId: 'soak', jobId: 'job', apiKey: 'mint_soak', final: { status: 'completed' } }
  let answered = 0
  const server = await startServer(
    (_req, res) => {
      answered += 1
      sendJson(res, 200, jobBody(story, answered >= polls ? 'completed' : 'active', null))
    },
    { record: false }
  )
  const opened = openTransport([], { http: undefined, https: undefined, noProxy: '' }, new AbortController().signal)
  const figures = { heapEarlyBytes: 0, heapLateBytes: 0, rssEarlyBytes: 0, rssLateBytes: 0 }
  const snapshot = (): { heap: number; rss: number } => {
    collect()
    const usage = process.memoryUsage()
    return { heap: usage.heapUsed, rss: usage.rss }
  }
  try {
    const settings = settingsOf({
      'base-url': server.url,
      'api-key': story.apiKey,
      'project-id': story.projectId,
      'poll-interval': '1ms',
      'max-poll-interval': '1ms',
      'request-timeout': '5s'
    })
    const api = createAdminApi(settings, opened.transport, 'https://github.com')
    const clock = {
      now: () => performance.now(),
      date: Date.now,
      random: Math.random,
      sleep: () => new Promise<void>((resolve) => setImmediate(resolve)),
      cancelled: () => false
    }
    const startedAt = clock.now()
    const result = await waitForJob({
      settings,
      fetchJob: (timeoutMs) => api.getJob(story.jobId, timeoutMs),
      clock,
      startedAt,
      deadline: startedAt + 600_000,
      onEvent: (event) => {
        if (event.kind !== 'poll') return
        if (event.poll === early) ({ heap: figures.heapEarlyBytes, rss: figures.rssEarlyBytes } = snapshot())
        if (event.poll === polls - 1) ({ heap: figures.heapLateBytes, rss: figures.rssLateBytes } = snapshot())
      }
    })
    if (result.kind !== 'completed') throw new Error(`the soak ended ${result.kind}`)
    return { polls: result.polls, ...figures }
  } finally {
    await opened.close()
    await server.close()
  }
}
