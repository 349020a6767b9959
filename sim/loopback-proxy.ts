// A minimal forward proxy on 127.0.0.1, as a self-hosted runner's proxy would be: absolute-form requests for
// http:// targets, CONNECT tunnels for https:// targets. It records what it carried. Host names under `.test`
// (such as api.mintlify.test) reach this machine, as a real host would through a real proxy; `routes` sends
// other `host:port` targets (such as api.mintlify.com:443) to servers on this machine. `misbehave` makes it a proxy
// that closes every tunnel's connection at once, holds each CONNECT unanswered, or answers it with a status; or that
// does so only to some of them, by their order.
import { createServer, request as httpRequest } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

export interface LoopbackProxy {
  readonly url: string
  /** `GET http://host/path` or `CONNECT host:port`, one per request carried. */
  readonly carried: string[]
  close(): Promise<void>
}

/** How a proxy fails a CONNECT: it drops the connection, never answers, or answers with this status (e.g. 407). */
export type Misbehaviour = 'close' | 'hang' | number

export interface ProxyOptions {
  /** `host:port` targets and the `host:port` that serves each, e.g. `api.mintlify.com:443` -> `127.0.0.1:41234`. */
  readonly routes?: Readonly<Record<string, string>>
  /**
   * Fail every CONNECT this way (a request for an http:// target alike), instead of carrying it; or, given a function
   * of the request's number (0 for the first), fail those it names and carry the others.
   */
  readonly misbehave?: Misbehaviour | ((request: number) => Misbehaviour | undefined)
}

/** Fails the CONNECT on this socket as `misbehave` says. */
function fail(client: Socket, misbehave: Misbehaviour): void {
  if (misbehave === 'close') client.destroy()
  else if (misbehave !== 'hang') client.end(`HTTP/1.1 ${misbehave} No\r\nContent-Length: 0\r\n\r\n`)
}

export async function startProxy({ routes = {}, misbehave }: ProxyOptions = {}): Promise<LoopbackProxy> {
  /** Where the proxy connects for a target: a route, or this machine for names under `.test`. */
  const resolve = (host: string, port: string): { host: string; port: number } => {
    const [routedHost = '', routedPort] = (routes[`${host}:${port}`] ?? '').split(':')
    if (routedPort !== undefined) return { host: routedHost, port: Number(routedPort) }
    return { host: host.endsWith('.test') ? '127.0.0.1' : host, port: Number(port) }
  }
  const carried: string[] = []
  /** How this request (the latest carried) is failed, if it is. */
  const failureOf = (): Misbehaviour | undefined =>
    typeof misbehave === 'function' ? misbehave(carried.length - 1) : misbehave
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    carried.push(`${req.method ?? ''} ${req.url ?? ''}`)
    const failure = failureOf()
    if (failure !== undefined) return fail(req.socket, failure)
    const target = new URL(req.url ?? '')
    const resolved = resolve(target.hostname, target.port || '80')
    target.hostname = resolved.host
    target.port = String(resolved.port)
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  server.on('connect', (req, client: Socket, head: Buffer) => {
    carried.push(`CONNECT ${req.url ?? ''}`)
    client.on('error', () => undefined)
    const failure = failureOf()
    if (failure !== undefined) return fail(client, failure)
    const [host = '', port = '443'] = (req.url ?? '').split(':')
    const resolved = resolve(host, port)
    const upstream = connect(resolved.port, resolved.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    carried,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
