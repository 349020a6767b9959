// HTTP for the whole action, on undici: one connection pool, or undici's proxy agent when a proxy variable is set,
// shared by every client (the admin API's and GitHub's), with the secrets it redacts and the run's cancel signal.
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici'
import packageJson from '../../package.json' with { type: 'json' }
import { isLoopbackHost } from '../inputs/api.ts'
import type { ProxySettings, ProxyVariable } from '../runner/environment.ts'
import { type Redact, redactor } from '../text/redact.ts'

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
}

const USER_AGENT = `${packageJson.name}/${packageJson.version}`

export interface OpenTransport {
  readonly transport: Transport
  /** Drops every connection, so the process can exit at once. */
  close(): Promise<void>
}

/**
 * The action's one transport: undici (through the runner's proxy, if it has one), redacting these secrets.
 * Throws an Error naming the variable when a proxy variable cannot be used.
 */
export function openTransport(
  secrets: readonly string[],
  proxies: ProxySettings,
  cancelSignal: AbortSignal
): OpenTransport {
  const http = createHttp(proxies)
  return {
    transport: { dispatcher: http.dispatcher, userAgent: USER_AGENT, redact: redactor(secrets), cancelSignal },
    close: () => http.close()
  }
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

/**
 * One dispatcher for every request of the action, and how to drop its connections. Throws an Error naming the
 * variable when a proxy variable cannot be used.
 */
function createHttp(proxies: ProxySettings): { readonly dispatcher: Dispatcher; close(): Promise<void> } {
  const direct = new Agent()
  const httpProxy = proxyUrl(proxies.http)
  const httpsProxy = proxyUrl(proxies.https)
  if (httpProxy === '' && httpsProxy === '') return { dispatcher: direct, close: () => direct.destroy() }
  // Given explicitly, so undici does not read the variables again as they were written.
  const viaProxy = new EnvHttpProxyAgent({ httpProxy, httpsProxy, noProxy: proxies.noProxy })
  return {
    dispatcher: viaProxy.compose(bypassProxyForLoopback(direct)),
    close: async () => {
      await Promise.all([direct.destroy(), viaProxy.destroy()])
    }
  }
}
