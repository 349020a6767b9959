// Exchanges as the transport reports them, for classifying answers without a network.
import type { Exchange } from '../../src/transport/exchange.ts'
import { networkFaultOf } from '../../src/transport/network-fault.ts'

export function answer(status: number, body?: unknown, headers: Record<string, string> = {}): Exchange {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)
  return { kind: 'answer', status, headers, body: text }
}

const API = new URL('https://api.mintlify.com/v2/agent/docs/job/job-1')

/** What the transport reports for an error with this code, thrown on the way to the API (through `proxy`, if given). */
export function network(code: string | undefined, message = 'socket failure', proxy?: string): Exchange {
  const error = Object.assign(new Error(message), code === undefined ? {} : { code })
  return { kind: 'network', fault: networkFaultOf(error, API, proxy) }
}

export const TIMEOUT: Exchange = { kind: 'timeout' }
export const CANCELLED: Exchange = { kind: 'cancelled' }
/** What undici says when a proxy answers CONNECT with `status`. */
export const tunnelRefused = (status: number): Exchange =>
  network('UND_ERR_ABORTED', `Proxy response (${status}) !== 200 when HTTP Tunneling`, 'http://proxy.test:3128')

export const CONTEXT = {
  projectId: 'docs',
  jobId: 'job-1',
  target: new URL('https://api.mintlify.com/v2/agent/docs/job/job-1'),
  redact: (text: string) => text.replaceAll('mint_secret', '***'),
  githubHosts: new Set(['github.com']),
  hostNotFound: (reason: string) => `The API host could not be found (${reason}).`,
  baseUrl: new URL('https://api.mintlify.com'),
  neverAnswered: false
}
