// A step that waits for job-5 of project proj, which a test's own server plays: the setup of the tests of how the step
// reads the admin API's answers and where the key and token may never show. A file takes the constants it uses
// (`const { KEY, PR } = JOB_FIVE`), in a describe of its own where the file's names mean its own step.
import type { ServerResponse } from 'node:http'
import { expect } from 'vitest'
import { jobBody, type Respond, sendJson } from '../../../sim/admin-api.ts'
import { type ActionRun, bundleRunner } from './run-bundle.ts'

const KEY = 'mint_K7q2Wx9LmP4rT8vN3bY6zH1cJ5dF0gSa'
const TOKEN = 'ghs_AbCdEfGhIjKlMnOpQrStUvWxYz012345'
const STORY = { projectId: 'proj', jobId: 'job-5', apiKey: KEY, final: { status: 'completed' } }
const PR = 'https://github.com/acme/docs/pull/5'
const INPUTS = {
  'project-id': 'proj',
  'job-id': 'job-5',
  'api-key': KEY,
  'poll-interval': '100ms',
  'max-poll-interval': '300ms'
}
const ISSUE_EVENT = { action: 'opened', issue: { number: 12, title: 'Docs' } }

export const JOB_FIVE = { KEY, TOKEN, STORY, PR, INPUTS, ISSUE_EVENT }

/** The run function of the step that waits for job-5. */
export const runJobFive = bundleRunner({ inputs: INPUTS, githubToken: TOKEN })

/** Job-5, completed with this pull request. */
export const completed = (res: ServerResponse, prLink: string | null = PR): void => {
  sendJson(res, 200, jobBody(STORY, 'completed', prLink))
}

/** Request i gets responders[i]; requests past the end get the last one. */
export function inTurn(...responders: Respond[]): Respond {
  return (req, res, index) => responders[Math.min(index, responders.length - 1)]?.(req, res, index)
}

/** Every piece of the key of 8 characters or more that appears in `text`. */
function keyPieces(text: string, key: string): string[] {
  const found: string[] = []
  for (let start = 0; start + 8 <= key.length; start++) {
    const piece = key.slice(start, start + 8)
    if (text.includes(piece)) found.push(piece)
  }
  return found
}

/** No part of the key anywhere the runner shows or passes on, but in the `::add-mask::` command it consumes. */
export function expectNoPartOfKey(result: ActionRun, key = KEY): void {
  const shown = `${result.stdout}\n${result.stderr}`
    .split('\n')
    .filter((line) => line !== `::add-mask::${key}`)
    .join('\n')
  expect(keyPieces(shown, key)).toEqual([])
  expect(keyPieces(result.summary, key)).toEqual([])
  expect(keyPieces(JSON.stringify(result.outputs), key)).toEqual([])
}
