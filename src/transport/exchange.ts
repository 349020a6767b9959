// One HTTP request and its answer, within one deadline from connecting to the last byte of the body.
import { request } from 'undici'
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
  /** The request failed before an answer was read; `code` is the error's code, if it has one. */
  | { readonly kind: 'network'; readonly code: string | undefined; readonly message: string }

export interface ExchangeLimits {
  /** One deadline from connecting to the last byte of the body. */
  readonly timeoutMs: number
  /** A longer body is refused without being buffered. */
  readonly maxBodyBytes: number
}

/** Sends one request; never follows a redirect (undici's `request` does not) and never throws. */
export async function exchange(
  transport: Pick<Transport, 'dispatcher' | 'cancelSignal'>,
  req: HttpRequest,
  limits: ExchangeLimits
): Promise<Exchange> {
  const { cancelSignal } = transport
  // A function, not a value: the signal can abort while the request is under way.
  const cancelled = (): boolean => cancelSignal.aborted
  if (cancelled()) return { kind: 'cancelled' }
  const controller = new AbortController()
  const timeout = new Error(`no complete answer within ${limits.timeoutMs}ms`)
  const timer = setTimeout(() => {
    controller.abort(timeout)
  }, limits.timeoutMs)
  const onCancel = (): void => {
    controller.abort(cancelSignal.reason)
  }
  cancelSignal.addEventListener('abort', onCancel, { once: true })
  try {
    const answer = await request(req.url, {
      dispatcher: transport.dispatcher,
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
    cancelSignal.removeEventListener('abort', onCancel)
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
