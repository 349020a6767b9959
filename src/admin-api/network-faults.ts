// What a network failure means: in words for the log, and whether the request surely never reached the API.
import { forLog } from '../text/untrusted-text.ts'

/** Network failures that happen before a request is sent: connecting was refused, or the name did not resolve. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT'
])

const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset or closed mid-response',
  UND_ERR_SOCKET: 'connection reset or closed mid-response',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  EAI_AGAIN: 'DNS lookup failed temporarily',
  ENOTFOUND: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable'
}

export const PROXY_AUTH_REQUIRED = 407

/**
 * The status a proxy gave instead of opening the tunnel to the API (undici's words for it), if that is what
 * happened: then the request never left the proxy.
 */
export function proxyRefusal(code: string | undefined, message: string): number | undefined {
  const match =
    code === 'UND_ERR_ABORTED' ? /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/.exec(message) : null
  return match ? Number(match[1]) : undefined
}

export function proxyReason(status: number): string {
  return status === PROXY_AUTH_REQUIRED
    ? `the proxy refused to open a tunnel to the API (HTTP 407: proxy authentication required). Put the proxy's user and password in HTTPS_PROXY (http://user:password@proxy:port)`
    : `the proxy could not open a tunnel to the API (HTTP ${status})`
}

/** `connection refused (ECONNREFUSED)`; `message` must be redacted and is shown only for an unknown code. */
export function networkReason(code: string | undefined, message: string): string {
  const known = code === undefined ? undefined : NETWORK_ERRORS[code]
  const suffix = code === undefined ? '' : ` (${code})`
  return known ? `${known}${suffix}` : `network error: ${forLog(message)}${suffix}`
}
