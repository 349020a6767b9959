/** Replaces secrets in text from outside (API answers, GitHub answers) with `***`. */
export type Redact = (text: string) => string

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The secret with each character as it is or percent-encoded (`mint_`, `mint%5F`, `%6D%69%6E%74%5F` alike): a
 * secret in a URL comes back encoded in part or in whole, depending on who encoded it.
 */
function percentPattern(secret: string): string {
  return Array.from(secret)
    .map((char) => {
      const encoded = [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')
      return `(?:${escapeRegExp(char)}|${encoded})`
    })
    .join('')
}

/**
 * The base64 (and base64url) text that stands for the secret wherever it starts in the encoded bytes, as in an
 * echoed `Authorization: Basic` header: for each of the three alignments, the characters that only its bytes decide.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  return [0, 1, 2].flatMap((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const first = Math.ceil((offset * 8) / 6)
    const last = Math.floor(((offset + bytes.length) * 8) / 6)
    const form = encoded.slice(first, last)
    return [form, form.replaceAll('+', '-').replaceAll('/', '_')]
  })
}

/**
 * A redactor for these secrets, in every form they could come back in: as they are or percent-encoded (in part or
 * in whole), and base64-encoded at any alignment, whatever their letter case. It runs before any text is cut short
 * or escaped, so no part of a secret survives either.
 */
export function redactor(secrets: readonly string[]): Redact {
  const present = [...new Set(secrets.filter((secret) => secret !== ''))]
  if (present.length === 0) return (text) => text
  const patterns = present.flatMap((secret) => [
    { length: secret.length, source: percentPattern(secret) },
    ...base64Forms(secret).map((form) => ({ length: form.length, source: escapeRegExp(form) }))
  ])
  // The longest first, so a secret that contains another is replaced whole.
  patterns.sort((a, b) => b.length - a.length)
  const pattern = new RegExp(patterns.map((candidate) => candidate.source).join('|'), 'gi')
  return (text) => text.replace(pattern, '***')
}

/** A copy of decoded JSON with every string (keys too) redacted. */
export function redactJson(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactJson(item, redact)]))
  }
  return value
}
