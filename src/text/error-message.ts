import { inspect } from 'node:util'

/** A readable message from anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  return inspect(error, { depth: 2, breakLength: Infinity })
}
