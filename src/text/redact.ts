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

/** The secret as a JSON string writes it, when that differs from the secret itself. */
function jsonForm(secret: string): { length: number; source: string }[] {
  const escaped = JSON.stringify(secret).slice(1, -1)
  return escaped === secret ? [] : [{ length: escaped.length, source: escapeRegExp(escaped) }]
}

/**
 * Shorter than this, a secret or one of its forms would match ordinary text (a one-character token's base64 forms are
 * empty, and would match everywhere; `comp` is in `completed`). No real key or token is this short; the runner still
 * masks one that is, as it masks every secret.
 */
export const SHORTEST_REDACTED = 6

/**
 * A redactor for these secrets, in every form they could come back in: as they are or percent-encoded (in part or
 * in whole), escaped as in a JSON string, and base64-encoded at any alignment, whatever their letter case. It runs on text that is about to be
 * shown (before it is cut short or escaped, so no part of a secret survives either), never on data the action
 * decides on.
 */
export function redactor(secrets: readonly string[]): Redact {
  const present = [...new Set(secrets.filter((secret) => secret.length >= SHORTEST_REDACTED))]
  if (present.length === 0) return (text) => text
  const patterns = present.flatMap((secret) => [
    { length: secret.length, source: percentPattern(secret) },
    // As JSON writes it, when it holds a `"` or a `\`: an answer quoted as JSON shows it escaped.
    ...jsonForm(secret),
    ...base64Forms(secret)
      .filter((form) => form.length >= SHORTEST_REDACTED)
      .map((form) => ({ length: form.length, source: escapeRegExp(form) }))
  ])
  // The longest first, so a secret that contains another is replaced whole.
  patterns.sort((a, b) => b.length - a.length)
  const pattern = new RegExp(patterns.map((candidate) => candidate.source).join('|'), 'gi')
  return (text) => text.replace(pattern, '***')
}

/** A copy of the value (JSON-like: objects, arrays, strings) with every string in it redacted, keys included. */
export function redactedDeep(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) return value.map((item) => redactedDeep(item, redact))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactedDeep(item, redact)]))
}
