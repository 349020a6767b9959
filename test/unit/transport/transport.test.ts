import { Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { PROXY_DIALS_EXCEEDED } from '../../../src/transport/network-fault.ts'
import { limitDials, openTransport } from '../../../src/transport/transport.ts'

describe('limitDials', () => {
  it('dials a proxy at most eight times a second, then fails at once until the second has passed', () => {
    let now = 0
    let dialled = 0
    const guarded = limitDials(
      (_options, callback) => {
        dialled += 1
        callback(null, new Socket())
      },
      'http://user:password@proxy.test:3128',
      () => now
    )
    const errors: (Error | null)[] = []
    const dial = () => {
      guarded({ hostname: 'proxy.test', host: 'proxy.test', protocol: 'http:', port: '3128' }, (...args) => {
        errors.push(args[0])
      })
    }
    for (let i = 0; i < 50; i++) dial()
    expect(dialled).toBe(8)
    expect(errors.filter((error) => error !== null)).toHaveLength(42)
    expect(errors.at(-1)).toMatchObject({ code: PROXY_DIALS_EXCEEDED })
    // The proxy's credentials stay out of the message.
    expect(errors.at(-1)?.message).toBe('the proxy at http://proxy.test:3128 was dialled 8 times within a second')
    now = 1000
    dial()
    expect(dialled).toBe(9)
  })
})

describe('openTransport', () => {
  const proxies = {
    http: { name: 'HTTP_PROXY', value: 'http://user:secret@proxy.test:3128' },
    https: { name: 'HTTPS_PROXY', value: 'proxy-s.test:8080' },
    noProxy: ''
  }

  it('names the proxy a request goes through, without its credentials, and none for this machine', async () => {
    const opened = openTransport([], proxies, new AbortController().signal)
    const { proxyFor } = opened.transport
    expect(proxyFor(new URL('https://api.mintlify.com/v2'))).toBe('http://proxy-s.test:8080')
    expect(proxyFor(new URL('http://docs.example/'))).toBe('http://proxy.test:3128')
    for (const local of ['http://127.0.0.1:8787/', 'http://localhost:8787/', 'http://[::1]:8787/']) {
      expect(proxyFor(new URL(local))).toBeUndefined()
    }
    await opened.close()
  })
})
