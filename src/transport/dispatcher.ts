// HTTP for the whole action, on undici: one connection pool, or undici's proxy agent when a proxy variable is set.
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici'
import type { ProxySettings, ProxyVariable } from '../runner/environment.ts'
import { isLoopbackHost } from './loopback.ts'

export interface Http {
  /** Every request of the action goes through this one dispatcher: the admin API's and GitHub's. */
  readonly dispatcher: Dispatcher
  /** Drops every connection, so the process can exit at once. */
  close(): Promise<void>
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

/** Throws an Error naming the variable when a proxy variable cannot be used. */
export function createHttp(proxies: ProxySettings): Http {
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
