// Memory over thousands of polls: the action's own client and poller against a loopback server, in this
// process, with the heap measured after a full garbage collection early on and again at the end.
import { createAdminApi } from '../src/admin-api/client.ts'
import { waitForJob } from '../src/step/wait-for-job.ts'
import { createHttp } from '../src/transport/dispatcher.ts'
import { jobBody, sendJson, startServer } from '../sim/admin-api.ts'

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
  const http = createHttp({ http: undefined, https: undefined, noProxy: '' })
  const figures = { heapEarlyBytes: 0, heapLateBytes: 0, rssEarlyBytes: 0, rssLateBytes: 0 }
  const snapshot = (): { heap: number; rss: number } => {
    collect()
    const usage = process.memoryUsage()
    return { heap: usage.heapUsed, rss: usage.rss }
  }
  try {
    const transport = {
      dispatcher: http.dispatcher,
      userAgent: 'bench',
      redact: (text: string) => text,
      cancelSignal: new AbortController().signal
    }
    const api = createAdminApi(
      transport,
      { baseUrl: new URL(server.url), apiKey: story.apiKey, projectId: story.projectId },
      'https://github.com'
    )
    const options = { pollIntervalMs: 1, maxPollIntervalMs: 1, timeoutMs: 600_000, requestTimeoutMs: 5000 }
    const clock = {
      now: () => performance.now(),
      random: Math.random,
      sleep: () => new Promise<void>((resolve) => setImmediate(resolve))
    }
    const result = await waitForJob({
      ...options,
      fetchJob: (timeoutMs) => api.getJob(story.jobId, timeoutMs),
      clock,
      onEvent: (event) => {
        if (event.kind !== 'poll') return
        if (event.poll === early) ({ heap: figures.heapEarlyBytes, rss: figures.rssEarlyBytes } = snapshot())
        if (event.poll === polls - 1) ({ heap: figures.heapLateBytes, rss: figures.rssLateBytes } = snapshot())
      }
    })
    if (result.kind !== 'completed') throw new Error(`the soak ended ${result.kind}`)
    return { polls: result.polls, ...figures }
  } finally {
    await http.close()
    await server.close()
  }
}
