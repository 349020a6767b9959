import packageJson from '../../package.json' with { type: 'json' }
import type { ProxySettings } from '../runner/environment.ts'
import { redactor } from '../text/redact.ts'
import { createHttp } from './dispatcher.ts'
import type { Transport } from './transport.ts'

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
