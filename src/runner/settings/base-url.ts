import { isLoopbackHost } from '../../transport/loopback.ts'
import type { InputReader } from './input-reader.ts'

/** The admin API's root: https (http only on this machine), no credentials, no query, no version path. */
export function readBaseUrl(reader: InputReader): URL | undefined {
  const text = reader.text('base-url')
  let url: URL
  try {
    url = new URL(text)
  } catch {
    reader.problem(`Input "base-url" must be an absolute URL such as https://api.mintlify.com; got "${text}".`)
    return undefined
  }
  const problem = baseUrlProblem(url)
  if (problem === undefined) return url
  reader.problem(problem)
  return undefined
}

function baseUrlProblem(url: URL): string | undefined {
  const where = `Input "base-url" (${url.href})`
  if (url.username !== '' || url.password !== '') {
    return 'Input "base-url" must not contain credentials: the API key is sent as a bearer token.'
  }
  if (url.search !== '' || url.hash !== '') return `${where} must not have a query or fragment.`
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `${where} must use https://; plain http:// is allowed only for localhost, so the key never crosses a network in clear text.`
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${where} must use https://.`
  if (url.pathname.split('/').some((segment) => /^v\d+$/i.test(segment))) {
    return `${where} must be the API's root, without a version path: the action adds /v2 itself (use https://api.mintlify.com, not https://api.mintlify.com/v2).`
  }
  return undefined
}
