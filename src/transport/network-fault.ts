// What went wrong on the way, when a request got no answer: narrowed once, from what undici or Node threw, into what
// it means for the request (surely not sent, or perhaps sent) and words a user can act on. The admin API's client and
// GitHub's read it alike.
import { forLog } from '../text/untrusted.ts'

/** What went wrong before an answer was read. */
export type NetworkFault =
  /** The proxy answered the tunnel's CONNECT with this status instead of opening it: nothing passed the proxy. */
  | { readonly kind: 'proxy refused'; readonly status: number; readonly proxy: string | undefined }
  /** The proxy closed the connection before it opened the tunnel: nothing passed the proxy. */
  | { readonly kind: 'proxy closed'; readonly proxy: string | undefined; readonly code: string }
  /**
   * The TLS handshake failed (a certificate not trusted, expired or for another name; not TLS at all): no byte of
   * the request was sent, and trying again cannot help.
   */
  | { readonly kind: 'tls'; readonly code: string; readonly host: string; readonly detail: string }
  /** No connection was made (refused, unreachable, the name did not resolve, connecting timed out): nothing was sent. */
  | { readonly kind: 'no connection'; readonly code: string; readonly host: string }
  /** The connection failed after the request may have been sent (a reset, a close mid-answer, ...). */
  | { readonly kind: 'broken'; readonly code: string | undefined; readonly message: string }

/** Our own code for a proxy that made us connect again and again (see transport.ts). */
export const PROXY_DIALS_EXCEEDED = 'PROXY_DIALS_EXCEEDED'

const NO_CONNECTION: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed temporarily',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out'
}

const BROKEN: Readonly<Record<string, string>> = {
  ECONNRESET: 'connection reset or closed mid-response',
  UND_ERR_SOCKET: 'connection reset or closed mid-response',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out'
}

/** Node's codes for a certificate it will not trust, and the TLS layer's own. */
const TLS_CODE =
  /^(?:ERR_TLS_|ERR_SSL_|UNABLE_TO_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|HOSTNAME_MISMATCH$|EPROTO$)/

/** undici's words when a proxy answers CONNECT with another status than 200. */
const TUNNEL_REFUSED = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/

/** The error and each of its causes, outermost first (fetch wraps what the dispatcher threw, twice). */
function chainOf(error: unknown): { readonly code: string | undefined; readonly message: string }[] {
  const chain: { code: string | undefined; message: string }[] = []
  for (let link: unknown = error; typeof link === 'object' && link !== null && chain.length < 10;) {
    const code = 'code' in link && typeof link.code === 'string' ? link.code : undefined
    const message = 'message' in link && typeof link.message === 'string' ? link.message : ''
    chain.push({ code, message })
    link = 'cause' in link ? link.cause : undefined
  }
  if (chain.length === 0) chain.push({ code: undefined, message: String(error) })
  return chain
}

/** The status a proxy answered a tunnel's CONNECT with, when that is why this error was thrown. */
export function tunnelRefusal(error: unknown): number | undefined {
  const status = chainOf(error)
    .map((link) => TUNNEL_REFUSED.exec(link.message)?.[1])
    .find((found) => found !== undefined)
  return status === undefined ? undefined : Number(status)
}

/**
 * What this error means for a request to `url`. `proxy` is the address of the proxy the request went through (without
 * credentials), if any.
 */
export function networkFaultOf(error: unknown, url: URL, proxy: string | undefined): NetworkFault {
  const chain = chainOf(error)
  const refused = tunnelRefusal(error)
  if (refused !== undefined) return { kind: 'proxy refused', status: refused, proxy }
  const codes = chain.map((link) => link.code).filter((code) => code !== undefined)
  const closed = codes.find((code) => code === 'UND_ERR_PRX_CONN' || code === PROXY_DIALS_EXCEEDED)
  if (closed !== undefined) return { kind: 'proxy closed', proxy, code: closed }
  const tls = chain.find((link) => link.code !== undefined && TLS_CODE.test(link.code))
  if (tls?.code !== undefined) return { kind: 'tls', code: tls.code, host: url.host, detail: tls.message }
  // The innermost code says what the socket saw.
  const code = codes.at(-1)
  if (code !== undefined && code in NO_CONNECTION) return { kind: 'no connection', code, host: url.host }
  return { kind: 'broken', code, message: chain.at(-1)?.message ?? '' }
}

/** Whether the request surely never reached the server: nothing left the runner, or nothing passed the proxy. */
export function surelyNotSent(fault: NetworkFault): boolean {
  return fault.kind !== 'broken'
}

export const PROXY_AUTH_REQUIRED = 407

/** `the proxy at http://proxy.example:3128`: the address as the runner's variable gives it, without credentials. */
export function proxyNamed(proxy: string | undefined): string {
  return proxy === undefined ? "the runner's proxy" : `the proxy at ${proxy}`
}

/**
 * The fault in words, after `Could not ...:`; `redact` hides secrets in what came from outside. `to` names what the
 * request was for (`the API`, `GitHub`).
 */
export function faultWords(fault: NetworkFault, to: string, redact: (text: string) => string): string {
  switch (fault.kind) {
    case 'proxy refused':
      return fault.status === PROXY_AUTH_REQUIRED
        ? `${proxyNamed(fault.proxy)} refused to open a tunnel to ${to} (HTTP 407: proxy authentication required)`
        : `${proxyNamed(fault.proxy)} could not open a tunnel to ${to} (HTTP ${fault.status})`
    case 'proxy closed':
      return `${proxyNamed(fault.proxy)} closed the connection before opening a tunnel to ${to} (${fault.code})`
    case 'tls':
      return `the TLS handshake with ${fault.host} failed: ${forLog(redact(fault.detail), 200)} (${fault.code})`
    case 'no connection':
      return `${NO_CONNECTION[fault.code] ?? 'no connection'} (${fault.code})`
    case 'broken': {
      const known = fault.code === undefined ? undefined : BROKEN[fault.code]
      const suffix = fault.code === undefined ? '' : ` (${fault.code})`
      return known ? `${known}${suffix}` : `network error: ${forLog(redact(fault.message))}${suffix}`
    }
  }
}
