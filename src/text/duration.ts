export const HOUR_MS = 3_600_000
export const DAY_MS = 24 * HOUR_MS

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: HOUR_MS } as const
type Unit = keyof typeof UNIT_MS

const BARE_SECONDS = /^\d+(?:\.\d+)?$/
const WITH_UNITS = /^\d+(?:\.\d+)?(?:ms|s|m|h)(?:\s*\d+(?:\.\d+)?(?:ms|s|m|h))*$/
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g

/**
 * Parses `500ms`, `10s`, `5m`, `1h`, compounds such as `1h30m` or `1m 30s` (as the action writes durations), or a
 * bare number of seconds.
 * Returns milliseconds, or undefined when the text is not a duration.
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase()
  if (BARE_SECONDS.test(value)) return Math.round(Number(value) * 1000)
  if (!WITH_UNITS.test(value)) return undefined
  let total = 0
  for (const [, amount, unit] of value.matchAll(PART)) {
    total += Number(amount) * UNIT_MS[unit as Unit]
  }
  return Math.round(total)
}

/** Renders milliseconds for people: `850ms`, `12s`, `4m 5s`, `1h 2m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`
  const totalSeconds = Math.round(ms / 1000)
  const hours = Math.floor(totalSeconds / 3600)
  const minutes = Math.floor((totalSeconds % 3600) / 60)
  const seconds = totalSeconds % 60
  if (hours > 0) return minutes > 0 ? `${hours}h ${minutes}m` : `${hours}h`
  if (minutes > 0) return seconds > 0 ? `${minutes}m ${seconds}s` : `${minutes}m`
  return `${seconds}s`
}
