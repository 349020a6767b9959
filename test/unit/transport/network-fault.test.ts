import { describe, expect, it } from 'vitest'
import { faultWords, networkFaultOf, surelyNotSent, tunnelRefusal } from '../../../src/transport/network-fault.ts'

const API = new URL('https://api.mintlify.com/v2/agent/docs/job/1')
const PROXY = 'http://proxy.test:3128'
const redact = (text: string) => text.replaceAll('mint_secret', '***')

const thrown = (code: string | undefined, message: string, cause?: unknown): Error =>
  Object.assign(new Error(message, cause === undefined ? {} : { cause }), code === undefined ? {} : { code })

/** As undici's fetch reports a dispatcher's error: a TypeError, around a DOMException, around the error. */
const asFetchDoes = (error: Error): Error =>
  new TypeError('fetch failed', { cause: Object.assign(new DOMException('Request was cancelled.'), { cause: error }) })

describe('networkFaultOf', () => {
  it.each([
    ['connection refused', thrown('ECONNREFUSED', 'connect ECONNREFUSED'), 'no connection', true],
    ['a temporary DNS failure', thrown('EAI_AGAIN', 'getaddrinfo EAI_AGAIN'), 'no connection', true],
    ['a connect timeout', thrown('UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error'), 'no connection', true],
    ['a reset', thrown('ECONNRESET', 'read ECONNRESET'), 'broken', false],
    ['an error without a code', thrown(undefined, 'other side closed'), 'broken', false],
    ['a self-signed certificate', thrown('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), 'tls', true],
    [
      'a wrong name',
      thrown('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"),
      'tls',
      true
    ],
    ['not TLS at all', thrown('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong version number'), 'tls', true],
    [
      'a proxy that closed the connection on CONNECT',
      thrown('UND_ERR_PRX_CONN', 'Proxy Connection failed', thrown('UND_ERR_SOCKET', 'other side closed')),
      'proxy closed',
      true
    ],
    [
      'a proxy that refused the tunnel, as fetch wraps it',
      asFetchDoes(thrown('UND_ERR_ABORTED', 'Proxy response (407) !== 200 when HTTP Tunneling')),
      'proxy refused',
      true
    ]
  ] as const)('%s: %s', (_, error, kind, notSent) => {
    const fault = networkFaultOf(error, API, PROXY)
    expect(fault.kind).toBe(kind)
    expect(surelyNotSent(fault)).toBe(notSent)
  })

  it('reads the code of the innermost error, where the socket failed', () => {
    const fault = networkFaultOf(thrown('UND_ERR_X', 'wrapped', thrown('ECONNREFUSED', 'refused')), API, undefined)
    expect(fault).toEqual({ kind: 'no connection', code: 'ECONNREFUSED', host: 'api.mintlify.com' })
  })

  it('finds the status a proxy answered a CONNECT with, however deep', () => {
    expect(
      tunnelRefusal(asFetchDoes(thrown('UND_ERR_ABORTED', 'Proxy response (502) !== 200 when HTTP Tunneling')))
    ).toBe(502)
    expect(tunnelRefusal(thrown('ECONNRESET', 'read ECONNRESET'))).toBeUndefined()
  })
})

describe('faultWords', () => {
  it.each([
    [
      thrown('UND_ERR_PRX_CONN', 'Proxy Connection failed'),
      'the proxy at http://proxy.test:3128 closed the connection before opening a tunnel to GitHub (UND_ERR_PRX_CONN)'
    ],
    [
      thrown('UND_ERR_ABORTED', 'Proxy response (407) !== 200 when HTTP Tunneling'),
      'the proxy at http://proxy.test:3128 refused to open a tunnel to GitHub (HTTP 407: proxy authentication required)'
    ],
    [thrown('ECONNREFUSED', 'connect ECONNREFUSED'), 'connection refused (ECONNREFUSED)'],
    [
      thrown('CERT_HAS_EXPIRED', 'certificate has expired for mint_secret'),
      'the TLS handshake with api.mintlify.com failed: certificate has expired for *** (CERT_HAS_EXPIRED)'
    ],
    [thrown('EWHATEVER', 'odd failure mint_secret'), 'network error: odd failure *** (EWHATEVER)']
  ])('says %s in words', (error, words) => {
    expect(faultWords(networkFaultOf(error, API, PROXY), 'GitHub', redact)).toBe(words)
  })
})
