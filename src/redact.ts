/** Replaces secrets in text from outside (API answers, GitHub answers) with `***`. */
export type Redact = (text: string) => string

/**
 * A redactor for these secrets, in the forms they could come back in: as they are, and percent-encoded (as in a
 * URL). It runs before any text is cut short or escaped, so no part of a secret survives either.
 */
export function redactor(secrets: readonly string[]): Redact {
  const forms = [
    ...new Set(secrets.filter((secret) => secret !== '').flatMap((secret) => [secret, encodeURIComponent(secret)]))
  ]
  // The longest first, so a secret that contains another is replaced whole.
  forms.sort((a, b) => b.length - a.length)
  return (text) => forms.reduce((redacted, form) => redacted.split(form).join('***'), text)
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
