/** Replaces secrets in text from outside (API answers, GitHub answers) with `***`. */
export type Redact = (text: string) => string

/** Every form a secret could come back in: as it is, percent-encoded (in part or byte by byte), and base64. */
function formsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  return [
    secret,
    encodeURIComponent(secret),
    [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url')
  ]
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * A redactor for these secrets, in every form they could come back in (see formsOf), whatever their letter case.
 * It runs before any text is cut short or escaped, so no part of a secret survives either.
 */
export function redactor(secrets: readonly string[]): Redact {
  const forms = [...new Set(secrets.filter((secret) => secret !== '').flatMap(formsOf))]
  if (forms.length === 0) return (text) => text
  // The longest first, so a secret that contains another is replaced whole.
  forms.sort((a, b) => b.length - a.length)
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'gi')
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
