// HTTP for the admin API, on Node's own http and https modules with their built-in proxy support.
//
// Not undici: its client loads node:http2 and its whole dispatcher stack when the action starts, which doubled
// the time to the first poll (see the benchmark). Node's agents read HTTPS_PROXY, HTTP_PROXY and NO_PROXY (and
// their lower-case forms) through `proxyEnv`, and tunnel https through CONNECT.
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import https from 'node:https'

export interface HttpResponse {
  readonly statusCode: number
  readonly headers: IncomingHttpHeaders
  /** Must be read to the end or destroyed. */
  readonly body: IncomingMessage
}

export interface HttpClient {
  get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<HttpResponse>
  /** Closes idle connections, so the process can exit at once. */
  close(): void
}

/** Node 24.5 added `proxyEnv`; an older Node ignores it, and the proxy with it. */
export function supportsProxyEnv(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number)
  return major > 24 || (major === 24 && minor >= 5)
}

export function createHttpClient(env: NodeJS.ProcessEnv = process.env): HttpClient {
  const options = { keepAlive: true, proxyEnv: env }
  const agents = { 'http:': new http.Agent(options), 'https:': new https.Agent(options) }
  return {
    get: (url, headers, signal) =>
      new Promise((resolve, reject) => {
        const secure = url.protocol === 'https:'
        const request = (secure ? https : http).request(url, { method: 'GET', headers, signal, agent: agents[secure ? 'https:' : 'http:'] })
        request.on('response', (body) => {
          resolve({ statusCode: body.statusCode ?? 0, headers: body.headers, body })
        })
        request.on('error', reject)
        request.end()
      }),
    close: () => {
      agents['http:'].destroy()
      agents['https:'].destroy()
    }
  }
}
