// One HTTP request and its answer, within one deadline from connecting (to the proxy, through its tunnel, to the
// server) to the last byte of the body.
import { request } from 'undici'
import { type NetworkFault, networkFaultOf } from './network-fault.ts'
import type { Transport } from './transport.ts'

export interface HttpRequest {
  readonly url: URL
  readonly method: 'GET' | 'POST'
  readonly headers: Record<string, string>
  /** A JSON body, for POST. */
  readonly body?: string
}

export type Headers = Readonly<Record<string, string | string[] | undefined>>

/** How one exchange ended. */
export type Exchange =
  /** `body` is undefined when it was longer than allowed; it was then not read. */
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Headers; readonly body: string | undefined }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  /** The request failed before an answer was read. */
  | { readonly kind: 'network'; readonly fault: NetworkFault }

export interface ExchangeLimits {
  /** One deadline from connecting to the last byte of the body. */
  readonly timeoutMs: number
  /** A longer body is refused without being buffered. */
  readonly maxBodyBytes: number
}

/**
 * Sends one request; never follows a redirect (undici's `request` does not) and never throws. The deadline holds
 * whatever the dispatcher does: the exchange ends when it passes, or when the run is cancelled, even if the request
 * were to go on.
 */
export async function exchange(
  transport: Pick<Transport, 'dispatcher' | 'cancelSignal' | 'proxyFor'>,
  req: HttpRequest,
  limits: ExchangeLimits
): Promise<Exchange> {
  const { cancelSignal } = transport
  if (cancelSignal.aborted) return { kind: 'cancelled' }
  const controller = new AbortController()
  const timeout = new Error(`no complete answer within ${limits.timeoutMs}ms`)
  const timer = setTimeout(() => {
    controller.abort(timeout)
  }, limits.timeoutMs)
  const onCancel = (): void => {
    controller.abort(cancelSignal.reason)
  }
  cancelSignal.addEventListener('abort', onCancel, { once: true })
  const stopped = (): Exchange => (cancelSignal.aborted ? { kind: 'cancelled' } : { kind: 'timeout' })
  const ended = new Promise<Exchange>((resolve) => {
    controller.signal.addEventListener(
      'abort',
      () => {
        resolve(stopped())
      },
      { once: true }
    )
  })
  try {
    return await Promise.race([send(transport, req, limits, controller.signal, stopped), ended])
  } finally {
    clearTimeout(timer)
    cancelSignal.removeEventListener('abort', onCancel)
  }
}

async function send(
  transport: Pick<Transport, 'dispatcher' | 'proxyFor'>,
  req: HttpRequest,
  limits: ExchangeLimits,
  signal: AbortSignal,
  stopped: () => Exchange
): Promise<Exchange> {
  try {
    const answer = await request(req.url, {
      dispatcher: transport.dispatcher,
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      signal,
      // The deadline above covers the whole exchange; undici's own per-phase timers would only cut it short.
      headersTimeout: 0,
      bodyTimeout: 0
    })
    const body = await readLimited(answer.body, answer.headers['content-length'], limits.maxBodyBytes)
    return { kind: 'answer', status: answer.statusCode, headers: answer.headers, body }
  } catch (error) {
    if (signal.aborted) return stopped()
    return { kind: 'network', fault: networkFaultOf(error, req.url, transport.proxyFor(req.url)) }
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
