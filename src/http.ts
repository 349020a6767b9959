// HTTP for the whole action, on undici: one connection pool, or undici's proxy agent when a proxy variable is set.
import { Agent, type Dispatcher, EnvHttpProxyAgent, request } from 'undici'
import { isLoopbackHost } from './loopback.ts'

export interface Http {
  /** Every request of the action goes through this one dispatcher: the admin API's and GitHub's. */
  readonly dispatcher: Dispatcher
  /** Drops every connection, so the process can exit at once. */
  close(): Promise<void>
}

/** The proxy for each scheme, as undici and curl read it: the lower-case variable first. */
const PROXY_VARIABLES = {
  httpProxy: ['http_proxy', 'HTTP_PROXY'],
  httpsProxy: ['https_proxy', 'HTTPS_PROXY']
} as const

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
function proxyFrom(env: NodeJS.ProcessEnv, names: readonly string[]): string {
  // A blank variable is no setting: it does not hide the other spelling.
  const name = names.find((candidate) => env[candidate]?.trim())
  const value = name === undefined ? '' : (env[name] ?? '').trim()
  if (name === undefined) return ''
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(value) ? value : `http://${value}`
  let url: URL | undefined
  try {
    url = new URL(withScheme)
  } catch {
    url = undefined
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new Error(
      `The proxy variable ${name} is not an http:// or https:// proxy address (for example http://proxy.example:3128). Fix it in the runner's environment, or unset it.`
    )
  }
  return url.href
}

/** Throws an Error naming the variable when a proxy variable cannot be used. */
export function createHttp(env: NodeJS.ProcessEnv = process.env): Http {
  const direct = new Agent()
  const httpProxy = proxyFrom(env, PROXY_VARIABLES.httpProxy)
  const httpsProxy = proxyFrom(env, PROXY_VARIABLES.httpsProxy)
  if (httpProxy === '' && httpsProxy === '') return { dispatcher: direct, close: () => direct.destroy() }
  // Given explicitly, so undici does not read the variables again as they were written.
  const viaProxy = new EnvHttpProxyAgent({
    httpProxy,
    httpsProxy,
    noProxy: [env['no_proxy'], env['NO_PROXY']].find((value) => value?.trim()) ?? ''
  })
  return {
    dispatcher: viaProxy.compose(bypassProxyForLoopback(direct)),
    close: async () => {
      await Promise.all([direct.destroy(), viaProxy.destroy()])
    }
  }
}

export interface HttpRequest {
  readonly url: URL
  readonly method: 'GET' | 'POST'
  readonly headers: Record<string, string>
  /** A JSON body, for POST. */
  readonly body?: string
}

/** How one exchange ended. */
export type Exchange =
  /** `body` is undefined when it was longer than allowed; it was then not read. */
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Headers; readonly body: string | undefined }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  /** The request failed before an answer was read; `code` is the error's code, if it has one. */
  | { readonly kind: 'network'; readonly code: string | undefined; readonly message: string }

export type Headers = Readonly<Record<string, string | string[] | undefined>>

interface ExchangeLimits {
  /** One deadline from connecting to the last byte of the body. */
  readonly timeoutMs: number
  /** A longer body is refused without being buffered. */
  readonly maxBodyBytes: number
  /** Aborted when the workflow is cancelled. */
  readonly cancelSignal: AbortSignal
}

/** Sends one request; never follows a redirect (undici's `request` does not) and never throws. */
export async function exchange(dispatcher: Dispatcher, req: HttpRequest, limits: ExchangeLimits): Promise<Exchange> {
  const cancelled = (): boolean => limits.cancelSignal.aborted
  if (cancelled()) return { kind: 'cancelled' }
  const controller = new AbortController()
  const timeout = new Error(`no complete answer within ${limits.timeoutMs}ms`)
  const timer = setTimeout(() => {
    controller.abort(timeout)
  }, limits.timeoutMs)
  const onCancel = (): void => {
    controller.abort(limits.cancelSignal.reason)
  }
  limits.cancelSignal.addEventListener('abort', onCancel, { once: true })
  try {
    const answer = await request(req.url, {
      dispatcher,
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      signal: controller.signal,
      // The deadline above covers the whole exchange; undici's own per-phase timers would only cut it short.
      headersTimeout: 0,
      bodyTimeout: 0
    })
    const body = await readLimited(answer.body, answer.headers['content-length'], limits.maxBodyBytes)
    return { kind: 'answer', status: answer.statusCode, headers: answer.headers, body }
  } catch (error) {
    if (cancelled()) return { kind: 'cancelled' }
    if (controller.signal.reason === timeout) return { kind: 'timeout' }
    return { kind: 'network', code: errorCode(error), message: error instanceof Error ? error.message : String(error) }
  } finally {
    clearTimeout(timer)
    limits.cancelSignal.removeEventListener('abort', onCancel)
  }
}

type BodyStream = AsyncIterable<Buffer> & { destroy(): unknown }

async function readLimited(
  body: BodyStream,
  contentLength: string | string[] | undefined,
  maxBytes: number
): Promise<string | undefined> {
  if (Number(contentLength) > maxBytes) {
    body.destroy()
    return undefined
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > maxBytes) {
      body.destroy()
      return undefined
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The error's code, or its cause's (a proxy or TLS failure wraps the socket error). */
function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  if ('cause' in error) {
    const cause = errorCode(error.cause)
    if (cause !== undefined) return cause
  }
  return 'code' in error && typeof error.code === 'string' ? error.code : undefined
}
