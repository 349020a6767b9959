import { describe, expect, it } from 'vitest'
import { redactor } from '../../../src/text/redact.ts'

const KEY = 'mint_abcDEF123456'

describe('redactor', () => {
  const redact = redactor([KEY, 'ghs_tokenvalue'])

  it.each([
    ['as it is', `key=${KEY}.`],
    ['in upper case', `key=${KEY.toUpperCase()}.`],
    ['percent-encoded in part', `key=${KEY.replace('_', '%5F')}.`],
    ['percent-encoded in whole', `key=${[...Buffer.from(KEY)].map((byte) => `%${byte.toString(16)}`).join('')}.`],
    ['in base64, as in a Basic header', `Basic ${Buffer.from(`user:${KEY}`).toString('base64')}`],
    ['in base64 at another alignment', Buffer.from(`ab${KEY}cd`).toString('base64')],
    ['in base64url', Buffer.from(`x${KEY}`).toString('base64url')]
  ])('replaces the key %s', (_, text) => {
    const redacted = redact(text)
    expect(redacted).toContain('***')
    expect(redacted.toLowerCase()).not.toContain(KEY.toLowerCase())
    expect(redacted).not.toContain(Buffer.from(KEY).toString('base64').slice(2, 14))
  })

  it('replaces every secret, and leaves other text alone', () => {
    expect(redact(`a ${KEY} b ghs_tokenvalue c`)).toBe('a *** b *** c')
    expect(redact('nothing secret here')).toBe('nothing secret here')
  })

  it('replaces a secret holding a quote or a backslash as a JSON string writes it, too', () => {
    const secret = 'mint_q"uo\\te_0123'
    const redact = redactor([secret])
    expect(redact(JSON.stringify({ key: secret }))).toBe('{"key":"***"}')
    expect(redact(`raw ${secret}`)).toBe('raw ***')
  })

  it('does nothing without secrets', () => {
    expect(redactor(['', ''])('mint_x')).toBe('mint_x')
  })
})

describe('a secret too short to tell from ordinary text', () => {
  it.each(['x', 'comp', 'ab12c'])('is never made a pattern: %j', (secret) => {
    const redact = redactor([secret, KEY])
    expect(redact('completed, xyz, ab12c')).toBe('completed, xyz, ab12c')
    expect(redact(`then ${KEY}`)).toBe('then ***')
  })

  it('nor is a form of a longer secret that is too short', () => {
    // A six-character secret's base64 forms at some alignments are shorter than six characters.
    const redact = redactor(['abcdef'])
    expect(redact('Zm9v YmFy')).toBe('Zm9v YmFy')
    expect(redact('key abcdef')).toBe('key ***')
  })
})
