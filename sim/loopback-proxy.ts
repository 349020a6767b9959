// A minimal forward proxy on 127.0.0.1, as a self-hosted runner's proxy would be: absolute-form requests for
// http:// targets, CONNECT tunnels for https:// targets. It records what it carried. Host names under `.test`
// (such as api.mintlify.test) reach this machine, as a real host would through a real proxy.
import { createServer, request as httpRequest } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'

export interface LoopbackProxy {
  readonly url: string
  /** `GET http://host/path` or `CONNECT host:port`, one per request carried. */
  readonly carried: string[]
  close(): Promise<void>
}

/** Where the proxy connects for a host name: names under `.test` are served on this machine. */
function resolve(host: string): string {
  return host.endsWith('.test') ? '127.0.0.1' : host
}

export async function startProxy(): Promise<LoopbackProxy> {
  const carried: string[] = []
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    carried.push(`${req.method ?? ''} ${req.url ?? ''}`)
    const target = new URL(req.url ?? '')
    target.hostname = resolve(target.hostname)
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.writeHead(502).end())
    req.pipe(upstream)
  })
  server.on('connect', (req, client: Socket, head: Buffer) => {
    carried.push(`CONNECT ${req.url ?? ''}`)
    const [host = '', port] = (req.url ?? '').split(':')
    const upstream = connect(Number(port), resolve(host), () => {
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
