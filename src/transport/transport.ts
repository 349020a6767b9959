// HTTP for the whole action, on undici: one connection pool, or undici's proxy agent when a proxy variable is set,
// shared by every client (the admin API's and GitHub's), with the secrets it redacts and the run's cancel signal.
import { Agent, type buildConnector, type Dispatcher, EnvHttpProxyAgent, Pool } from 'undici'
import packageJson from '../../package.json' with { type: 'json' }
import { isLoopbackHost } from '../inputs/api.ts'
import type { ProxySettings, ProxyVariable } from '../runner/environment.ts'
import { type Redact, redactor } from '../text/redact.ts'
import { PROXY_DIALS_EXCEEDED } from './network-fault.ts'

/**
 * What every client of the action (the admin API's, GitHub's) sends its requests with. Built once in main.ts and
 * handed to each client when it is made.
 */
export interface Transport {
  /** One connection pool (or proxy agent) for every request of the action. */
  readonly dispatcher: Dispatcher
  /** `<package>/<version>`: undici sends none of its own. */
  readonly userAgent: string
  /** Replaces the key and the GitHub token in text from outside before it is shown. */
  readonly redact: Redact
  /** Aborted when the workflow is cancelled (SIGINT or SIGTERM). */
  readonly cancelSignal: AbortSignal
  /**
   * The address (without credentials) of the proxy a request to this URL goes through, for messages: the https
   * proxy for https, the http proxy otherwise; none for a loopback address.
   */
  readonly proxyFor: (url: URL) => string | undefined
}

const USER_AGENT = `${packageJson.name}/${packageJson.version}`

export interface OpenTransport {
  readonly transport: Transport
  /** Drops every connection, so the process can exit at once. */
  close(): Promise<void>
}

/**
 * The action's one transport: undici (through the runner's proxy, if it has one), redacting these secrets; no request
 * takes longer than `requestTimeoutMs`, tunnel included. Throws an Error naming the variable when a proxy variable
 * cannot be used.
 */
export function openTransport(
  secrets: readonly string[],
  proxies: ProxySettings,
  cancelSignal: AbortSignal,
  requestTimeoutMs = 30_000
): OpenTransport {
  const http = createHttp(proxies, requestTimeoutMs)
  const proxyFor = (url: URL): string | undefined => {
    if (isLoopbackHost(url.hostname)) return undefined
    const proxy = url.protocol === 'https:' ? http.httpsProxy || http.httpProxy : http.httpProxy
    return proxy === '' ? undefined : shownProxy(proxy)
  }
  return {
    transport: {
      dispatcher: http.dispatcher,
      userAgent: USER_AGENT,
      redact: redactor(secrets),
      cancelSignal,
      proxyFor
    },
    close: () => http.close()
  }
}

/** A proxy's address as messages show it: its origin, without the user name and password it may carry. */
function shownProxy(proxy: string): string {
  return new URL(proxy).origin
}

/** A loopback address never goes through a proxy: a proxy elsewhere cannot reach it, and would see the key. */
function bypassProxyForLoopback(direct: Dispatcher): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    isLoopbackHost(new URL(String(options.origin)).hostname)
      ? direct.dispatch(options, handler)
      : dispatch(options, handler)
}

/**
 * The proxy a variable names, as a URL undici accepts. Like curl and the toolkit's own HTTP client, a proxy given
 * without a scheme (`proxy.corp:3128`) is an http:// proxy. Throws an Error naming the variable otherwise.
 */
function proxyUrl(proxy: ProxyVariable | undefined): string {
  if (proxy === undefined) return ''
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(proxy.value) ? proxy.value : `http://${proxy.value}`
  let url: URL | undefined
  try {
    url = new URL(withScheme)
  } catch {
    url = undefined
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new Error(
      `The proxy variable ${proxy.name} is not an http:// or https:// proxy address (for example http://proxy.example:3128). Fix it in the runner's environment, or unset it.`
    )
  }
  return url.href
}

/** Connections to one proxy within DIAL_WINDOW_MS past which it is not dialled again until the window has passed. */
const MOST_DIALS = 8
const DIAL_WINDOW_MS = 1000

/**
 * The connector to a proxy, never dialling it more than MOST_DIALS times a second: a proxy that drops every
 * connection must not make a client dial it again and again (undici 7 did so, thousands of times a second). The
 * action opens a connection or two at a time; past the limit, connecting fails at once, as a fault of the one
 * request, which the action's own backoff retries.
 */
export function limitDials(
  connect: buildConnector.connector,
  proxy: string,
  now: () => number = () => performance.now()
): buildConnector.connector {
  const dials: number[] = []
  return (options, callback) => {
    const at = now()
    while (dials.length > 0 && at - (dials[0] ?? at) >= DIAL_WINDOW_MS) dials.shift()
    if (dials.length >= MOST_DIALS) {
      const error = new Error(`the proxy at ${shownProxy(proxy)} was dialled ${MOST_DIALS} times within a second`)
      callback(Object.assign(error, { code: PROXY_DIALS_EXCEEDED }), null)
      return
    }
    dials.push(at)
    connect(options, callback)
  }
}

/**
 * undici's pool of connections to a proxy: each dialled through limitDials, and the proxy's answer to a CONNECT
 * awaited no longer than one request may take (undici's own default is five minutes), so that a tunnel never opened
 * is given up with the request, and the next request asks for a new one.
 */
function proxyPool(requestTimeoutMs: number): (origin: URL, options: object) => Dispatcher {
  return (origin, options) => {
    const given = 'connect' in options && typeof options.connect === 'function' ? options.connect : undefined
    const connect = given === undefined ? {} : { connect: limitDials(given as buildConnector.connector, origin.href) }
    return new Pool(origin, { ...options, ...connect, headersTimeout: requestTimeoutMs })
  }
}

interface Http {
  readonly dispatcher: Dispatcher
  /** The proxies' addresses as undici takes them; '' when unset. */
  readonly httpProxy: string
  readonly httpsProxy: string
  close(): Promise<void>
}

/**
 * One dispatcher for every request of the action, and how to drop its connections. Throws an Error naming the
 * variable when a proxy variable cannot be used.
 */
function createHttp(proxies: ProxySettings, requestTimeoutMs: number): Http {
  const direct = new Agent()
  const httpProxy = proxyUrl(proxies.http)
  const httpsProxy = proxyUrl(proxies.https)
  if (httpProxy === '' && httpsProxy === '') {
    return { dispatcher: direct, httpProxy, httpsProxy, close: () => direct.destroy() }
  }
  // Given explicitly, so undici does not read the variables again as they were written.
  const viaProxy = new EnvHttpProxyAgent({
    httpProxy,
    httpsProxy,
    noProxy: proxies.noProxy,
    clientFactory: proxyPool(requestTimeoutMs)
  })
  return {
    dispatcher: viaProxy.compose(bypassProxyForLoopback(direct)),
    httpProxy,
    httpsProxy,
    close: async () => {
      await Promise.all([direct.destroy(), viaProxy.destroy()])
    }
  }
}
