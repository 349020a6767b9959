// Exchanges as the transport reports them, for classifying answers without a network.
import type { Exchange } from '../../src/transport/exchange.ts'

export function answer(status: number, body?: unknown, headers: Record<string, string> = {}): Exchange {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)
  return { kind: 'answer', status, headers, body: text }
}

export function network(code: string | undefined, message = 'socket failure'): Exchange {
  return { kind: 'network', code, message }
}

export const TIMEOUT: Exchange = { kind: 'timeout' }
export const CANCELLED: Exchange = { kind: 'cancelled' }
/** What undici says when a proxy answers CONNECT with `status`. */
export const tunnelRefused = (status: number): Exchange =>
  network('UND_ERR_ABORTED', `Proxy response (${status}) !== 200 when HTTP Tunneling`)

export const CONTEXT = {
  projectId: 'docs',
  jobId: 'job-1',
  target: new URL('https://api.mintlify.com/v2/agent/docs/job/job-1'),
  redact: (text: string) => text.replaceAll('mint_secret', '***'),
  githubHosts: new Set(['github.com']),
  hostNotFound: (reason: string) => `The API host could not be found (${reason}).`
}
