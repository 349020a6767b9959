// Readers for what GitHub sends (an event's payload, an API's answer), which may hold anything: each gives a value of
// its type, or an empty one. GitHub's own types say what it means to send, not what an answer holds.
import { httpUrl } from '../text/untrusted.ts'

export type Fields = Readonly<Record<string, unknown>>

const NO_FIELDS: Fields = {}

/** The object's fields, or none when it is not a plain object. */
export function fieldsOf(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : NO_FIELDS
}

/** Whether the value is a plain object with at least one field. */
export function hasFields(value: unknown): boolean {
  return Object.keys(fieldsOf(value)).length > 0
}

/** The fields of `value.name.name...`, or none. */
export function fieldsAt(value: unknown, ...names: readonly string[]): Fields {
  return names.reduce<Fields>((fields, name) => fieldsOf(fields[name]), fieldsOf(value))
}

export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** The first of the values that is a non-empty string, or empty. */
export function firstTextOf(...values: readonly unknown[]): string {
  return textOf(values.find((value) => typeof value === 'string' && value !== ''))
}

export function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined
}

export function positiveIntegerOf(value: unknown): number | undefined {
  const count = countOf(value)
  return count === undefined || count === 0 ? undefined : count
}

/** True only for `true`: a flag of another type says nothing. */
export function isTrue(value: unknown): boolean {
  return value === true
}

export function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : []
}

/** The URL if it is an absolute http(s) URL, else empty: a link the agent may follow goes nowhere else. */
export function httpUrlOf(value: unknown): string {
  return typeof value === 'string' ? (httpUrl(value)?.href ?? '') : ''
}

/** What an issue, a pull request and a comment all have: who wrote it, where it is, and what it says. */
export function postOf(post: Fields): { readonly author: string; readonly url: string; readonly body: string } {
  return {
    author: textOf(fieldsAt(post, 'user')['login']),
    url: httpUrlOf(post['html_url']),
    body: textOf(post['body'])
  }
}

/** The number of the last page a Link header names; 1 when it names none. */
export function lastPageOf(link: string | undefined): number {
  const url = /<([^>]+)>;\s*rel="last"/.exec(link ?? '')?.[1]
  const page = url === undefined ? NaN : Number(new URL(url).searchParams.get('page'))
  return Number.isSafeInteger(page) && page > 1 ? page : 1
}

/**
 * The HTTP status an Octokit error carries; undefined for a failure without an answer. Here, not with the client, so
 * that reading it loads no Octokit.
 */
export function httpStatusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
    ? error.status
    : undefined
}

/** A write GitHub may have carried out although it did not say so: a 5xx, or no answer at all. */
export function mayHaveLanded(error: unknown): boolean {
  const status = httpStatusOf(error)
  return status === undefined || status >= 500
}

/**
 * Undefined for a 404 (as for a commit GitHub no longer has, once a rewritten history was collected); any other error
 * is thrown again.
 */
export function unlessNotFound(error: unknown): undefined {
  if (httpStatusOf(error) === 404) return undefined
  throw error
}

/** A header of the answer an Octokit error carries; undefined without an answer or without the header. */
export function responseHeader(error: unknown, name: string): string | undefined {
  if (!(error instanceof Error) || !('response' in error)) return undefined
  const response: unknown = error.response
  const headers: unknown =
    typeof response === 'object' && response !== null && 'headers' in response ? response.headers : undefined
  if (typeof headers !== 'object' || headers === null || !(name in headers)) return undefined
  const value: unknown = (headers as Record<string, unknown>)[name]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}
