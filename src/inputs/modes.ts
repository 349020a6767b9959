// What the step does with a stream of changes: one job for this run (`single`), or one docs pull request kept in step
// with each code pull request (`pair`); the docs pull request's own token, the check on the code change, and the
// files a docs pull request may touch.
import { readGitHubToken } from './credentials.ts'
import { type PathFilter, readPatterns } from './gates.ts'
import type { InputReader } from './input-reader.ts'

export const MODES = ['single', 'pair'] as const
export type Mode = (typeof MODES)[number]

export interface Modes {
  readonly mode: Mode
  /** With `mode: pair`. */
  readonly pair: {
    /** Draft pull requests get a docs pull request too. */
    readonly drafts: boolean
    /** The label a docs pull request gets once its source pull request is merged; undefined for none. */
    readonly mergedLabel: string | undefined
  }
  /** A token for the docs repository (masked); '' to use `github-token` where the docs are the workflow's own. */
  readonly docsToken: string
  /** The check run on the head commit the run describes; undefined for none. */
  readonly check: { readonly name: string } | undefined
  /** The files a docs pull request may touch; undefined: not checked. */
  readonly docsPaths: PathFilter | undefined
}

/** `prompt` and `jobId` as read, for what a mode allows. */
export function readModes(reader: InputReader, request: { readonly jobId: string | undefined }): Modes {
  const given = reader.text('mode').toLowerCase() || 'single'
  const mode = MODES.find((candidate) => candidate === given)
  if (mode === undefined) reader.problem(`Input "mode" must be ${MODES.join(' or ')}; got "${reader.text('mode')}".`)
  if (mode === 'pair' && request.jobId !== undefined) {
    reader.problem(
      'Input "job-id" does not go with "mode: pair": the job is the one recorded on the pull request, and each event of the pull request starts it or follows it up.'
    )
  }
  const checkText = reader.text('check').toLowerCase()
  const check = checkText === '' ? mode === 'pair' : reader.boolean('check')
  const checkName = reader.text('check-name') || 'Mintlify docs'
  const mergedLabel = reader.text('merged-label')
  return {
    mode: mode ?? 'single',
    pair: { drafts: reader.boolean('pair-drafts'), mergedLabel: mergedLabel === '' ? undefined : mergedLabel },
    docsToken: readGitHubToken(reader, false, 'docs-token'),
    check: check ? { name: checkName } : undefined,
    docsPaths: readPatterns(reader, 'docs-paths')
  }
}
