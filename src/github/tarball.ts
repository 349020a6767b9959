// A repository's files at one commit, as GitHub serves them: its tarball, streamed as it arrives (never held whole,
// never written to disk) through the session's client, with its bytes counted; a failure worded once.
import { forLog } from '../text/untrusted.ts'
import { briefFailure, docsAdvice, failureOf, permissionHint } from './failure.ts'
import type { Done } from './pulls.ts'
import type { GitHubSession } from './session.ts'

/** Which repository, at which commit, and through which token: `docs` is docs-token when given. */
export interface ArchiveRef {
  readonly owner: string
  readonly repo: string
  readonly ref: string
  readonly as: 'own' | 'docs'
}

/** A tarball on its way: its bytes as they arrive, and how many have arrived so far. */
export interface Tarball {
  readonly chunks: AsyncIterable<Uint8Array>
  bytes(): number
}

function isStream(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value
}

/** The answers that mean the token may not, or cannot see: the advice says what it needs. */
const REFUSALS = [401, 403, 404]

/** Starts the download; its bytes are read as the caller takes them, within the session's deadline. */
export async function downloadTarball(session: GitHubSession, where: ArchiveRef): Promise<Done<Tarball>> {
  const client = session.client({ cancellable: true }, where.as)
  const repository = forLog(`${where.owner}/${where.repo}`, 100)
  const doing = `Could not download ${repository} at ${forLog(where.ref, 40).slice(0, 12)}`
  try {
    const { data } = await client.bounded(
      client.octokit.request('GET /repos/{owner}/{repo}/tarball/{ref}', {
        owner: where.owner,
        repo: where.repo,
        ref: where.ref,
        request: { parseSuccessResponseBody: false }
      })
    )
    const body: unknown = data
    let bytes = 0
    async function* chunks(): AsyncGenerator<Uint8Array> {
      if (!isStream(body)) return
      for await (const chunk of body) {
        bytes += chunk.length
        yield chunk
      }
    }
    return { kind: 'done', value: { chunks: chunks(), bytes: () => bytes } }
  } catch (error) {
    const failure = failureOf(error, client, session.cancelSignal.aborted)
    const advice = where.as === 'own' ? permissionHint('contents: read') : docsAdvice(session, where, 'contents: read')
    return { kind: 'warning', warning: briefFailure(doing, failure, { advice, refusedOn: REFUSALS }) }
  }
}
