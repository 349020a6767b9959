// A local stand-in for the Mintlify admin API: real HTTP on 127.0.0.1, used by the demo, the tests, the
// benchmark and the self-test workflow. It plays `GET /v2/agent/{projectId}/job/{id}` as the contract describes.
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'

export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage['headers']
  /** Milliseconds since the server started. */
  readonly at: number
}

/** Answers request number `index` (0-based). */
export type Respond = (req: IncomingMessage, res: ServerResponse, index: number) => unknown

export interface RunningServer {
  readonly url: string
  readonly requests: RecordedRequest[]
  /** Resolves once no connection to the server is open: after its clients have exited, `requests` holds all they sent. */
  allClosed(): Promise<void>
  close(): Promise<void>
}

export interface ServerOptions {
  readonly host?: string
  /** 0, the default, picks a free port. */
  readonly port?: number
  /** Serve https with this key and certificate (PEM). */
  readonly tls?: { readonly key: string; readonly cert: string }
  /** Keep a record of every request (the default); a soak test turns it off to measure only the client. */
  readonly record?: boolean
  /** How long an idle connection is kept open, as a load balancer would (30 s); 0 keeps it until the client closes it. */
  readonly keepAliveMs?: number
}

/** Starts an HTTP(S) server on a loopback port. */
export async function startServer(
  respond: Respond,
  { host = '127.0.0.1', port = 0, tls, record = true, keepAliveMs = 30_000 }: ServerOptions = {}
): Promise<RunningServer> {
  const requests: RecordedRequest[] = []
  let count = 0
  const sockets = new Set<Socket>()
  const started = performance.now()
  const listener: RequestListener = (req, res) => {
    const index = count++
    if (record)
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        at: performance.now() - started
      })
    Promise.resolve(respond(req, res, index)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error))
    })
  }
  const server = tls ? createTlsServer(tls, listener) : createServer(listener)
  // Keep idle connections open as a load balancer would, so a client that leaves sockets open cannot exit.
  server.keepAliveTimeout = keepAliveMs
  let whenAllClosed: (() => void)[] = []
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => {
      sockets.delete(socket)
      if (sockets.size > 0) return
      for (const resolve of whenAllClosed) resolve()
      whenAllClosed = []
    })
  })
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  const address = server.address() as AddressInfo
  return {
    url: `${tls ? 'https' : 'http'}://${host}:${address.port}`,
    requests,
    allClosed: () =>
      sockets.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => whenAllClosed.push(resolve)),
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve()
        })
      )
    }
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

export interface JobStory {
  readonly projectId: string
  readonly jobId: string
  /** The key the API accepts. */
  readonly apiKey: string
  /** The job answers `active` for this many polls... */
  readonly activePolls?: number
  /** ...or for this long after the first poll. */
  readonly activeForMs?: number
  /** How the job ends. */
  readonly final: { readonly status: string; readonly prLink?: string | null }
  readonly model?: string
  readonly repository?: string
  readonly ref?: string | null
}

/** A job body as the API returns it. */
export function jobBody(story: JobStory, status: string, prLink: string | null): Record<string, unknown> {
  return {
    id: story.jobId,
    status,
    source: {
      repository: story.repository ?? 'https://github.com/acme/docs',
      ref: story.ref === undefined ? 'main' : story.ref
    },
    model: story.model ?? 'claude-sonnet-4-5',
    prLink,
    createdAt: '2026-11-22T09:00:00.000Z',
    archivedAt: status === 'archived' ? '2026-11-22T09:30:00.000Z' : null
  }
}

/**
 * Plays one agent job: 401 for a wrong key, 404 for any other job or project, `active` for a while, then the
 * final status. Other paths answer 404 too.
 */
export function playJob(story: JobStory): Respond {
  return playJobs([story])
}

/** Plays several jobs at once (all with the same key), each with its own story. */
export function playJobs(stories: readonly JobStory[]): Respond {
  const jobs = new Map(
    stories.map((story) => [
      `/v2/agent/${encodeURIComponent(story.projectId)}/job/${encodeURIComponent(story.jobId)}`,
      { story, polls: 0, firstPollAt: undefined as number | undefined }
    ])
  )
  return (req, res) => {
    const job = jobs.get(req.url ?? '')
    if (!stories.some((story) => req.headers.authorization === `Bearer ${story.apiKey}`)) {
      sendJson(res, 401, { error: 'Invalid API key' })
      return
    }
    if (req.method !== 'GET' || job === undefined) {
      sendJson(res, 404, { error: 'Agent job not found' })
      return
    }
    const { story } = job
    job.polls += 1
    job.firstPollAt ??= performance.now()
    const stillActive =
      (story.activePolls !== undefined && job.polls <= story.activePolls) ||
      (story.activeForMs !== undefined && performance.now() - job.firstPollAt < story.activeForMs)
    const body = stillActive
      ? jobBody(story, 'active', null)
      : jobBody(story, story.final.status, story.final.prLink ?? null)
    sendJson(res, 200, body)
  }
}
