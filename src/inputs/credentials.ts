// The secrets: the admin API key and the GitHub token. Each is masked the moment it is read, and checked for what
// would make it unusable in a header, without ever echoing it.
import type { InputReader } from './input-reader.ts'

/** Characters a pasted secret often carries without anyone seeing them. */
const NAMED_CHARACTERS: Readonly<Record<number, string>> = {
  0x0a: 'a line break',
  0x0d: 'a line break',
  0x09: 'a tab',
  0xa0: 'a no-break space',
  0x200b: 'a zero-width space',
  0x200c: 'a zero-width non-joiner',
  0x200d: 'a zero-width joiner',
  0x2060: 'a word joiner',
  0xfeff: 'a byte-order mark'
}

/**
 * Why a secret cannot be sent in an HTTP header, if it cannot: only visible ASCII can. The problem names the
 * character's position and code, never the secret.
 */
function headerValueProblem(secret: string): string | undefined {
  const index = secret.search(/[^\x21-\x7e]/)
  if (index < 0) return undefined
  const code = secret.codePointAt(index) ?? 0
  const what =
    NAMED_CHARACTERS[code] ??
    (code < 0x20 || code === 0x7f ? 'a control character' : code === 0x20 ? 'a space' : 'a non-ASCII character')
  return `holds ${what} (U+${code.toString(16).toUpperCase().padStart(4, '0')}) at character ${index + 1}, so it cannot be sent in an HTTP header`
}

/** Mintlify's other keys start with `mint_` too, and are refused by the admin API: each named, by its prefix. */
const OTHER_KEYS: readonly { readonly prefix: string; readonly kind: string }[] = [
  { prefix: 'mint_dsc_', kind: 'an assistant API key' },
  { prefix: 'mint_us_', kind: 'an Index API key' }
]

/** The admin API key, masked before anything else can fail. */
export function readApiKey(reader: InputReader): string {
  const apiKey = reader.required(
    'api-key',
    'pass your admin API key from a secret, e.g. ${{ secrets.MINTLIFY_API_KEY }}. Empty means the secret is not set ' +
      'for this repository or environment, or GitHub gave this run no secrets, as for a pull request from a fork ' +
      'or one opened by Dependabot'
  )
  if (apiKey !== '') reader.source.setSecret(apiKey)
  const problem = headerValueProblem(apiKey)
  if (problem) reader.problem(`Input "api-key" ${problem}; check the secret for a pasted extra character.`)
  const other = OTHER_KEYS.find(({ prefix }) => apiKey.toLowerCase().startsWith(prefix))
  if (other) {
    reader.problem(
      `Input "api-key" holds ${other.kind} (it starts with "${other.prefix}"), not an admin API key, so nothing is sent: the admin API refuses it. Make an admin API key on the dashboard's API keys page, under organization settings, and store it in the api-key secret.`
    )
  }
  return apiKey
}

/** A project id that is an admin key (the inputs were swapped) is masked like one, and sent nowhere. */
export function refuseKeyAsProjectId(reader: InputReader, projectId: string): void {
  if (!/^mint_/i.test(projectId)) return
  reader.source.setSecret(projectId)
  reader.problem(
    'Input "project-id" holds an admin API key (it starts with "mint_"), so it is masked and nothing is sent: the key goes in "api-key", from a secret; the project id is on the dashboard\'s API keys page.'
  )
}

/** Warns when the key does not look like an admin key: the usual mistake is passing the project id. */
export function warnOfUnusualKey(reader: InputReader, apiKey: string, projectId: string): void {
  if (apiKey === '' || apiKey.startsWith('mint_') || /^mint_/i.test(projectId)) return
  const hint = apiKey === projectId ? 'it equals project-id' : 'the usual mistake is passing the project id'
  reader.warning(
    `Input "api-key" does not start with "mint_" as Mintlify admin API keys do (${hint}). Expect the API to refuse it.`
  )
}

/**
 * The GitHub token, masked; required (and checked) only when the step uses GitHub. `docs-token` is read alike, and
 * checked whenever it is given.
 */
export function readGitHubToken(
  reader: InputReader,
  usesGitHub: boolean,
  name: 'github-token' | 'docs-token' = 'github-token'
): string {
  const token = reader.text(name)
  if (token !== '') reader.source.setSecret(token)
  if (usesGitHub && token === '') {
    reader.problem(
      'Input "github-token" is required when "comment" or "follow-up" is true, "context" is auto, or "paths", "paths-ignore", "min-changed-lines" or "max-jobs-per-hour" is set: leave it unset to use ${{ github.token }}.'
    )
  }
  const problem = usesGitHub || (name === 'docs-token' && token !== '') ? headerValueProblem(token) : undefined
  if (problem) reader.problem(`Input "${name}" ${problem}.`)
  return token
}
