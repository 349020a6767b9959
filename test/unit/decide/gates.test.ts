// Whether a change is worth a job: each gate, in the order they are asked, and what the reason says.
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import type { ChangedFile, EventChange } from '../../../src/github/change.ts'
import { factsFromEvent } from '../../../src/github/event.ts'
import { capReached, gate, type GatedChange, gatedChangeOf } from '../../../src/decide/gates.ts'
import { commentOnPullRequest, mergedPullRequest, pushToMain } from '../support/event-payloads.ts'

const change = (overrides: Partial<GatedChange> = {}): GatedChange => ({
  name: 'pull request #7',
  author: 'octocat',
  labels: [],
  files: undefined,
  changedLines: undefined,
  ...overrides
})
const file = (path: string, previousPath?: string): ChangedFile => ({
  path,
  previousPath,
  status: previousPath ? 'renamed' : 'modified',
  additions: 1,
  deletions: 1
})
const gates = (inputs: Record<string, string> = {}) => settingsOf(inputs).gates

describe('gate', () => {
  it('lets a change by a person through', () => {
    expect(gate(gates(), change(), undefined)).toEqual({ kind: 'pass' })
  })

  it.each([
    [
      'the Mintlify agent, even with skip-authors empty',
      change({ author: 'Mintlify[bot]' }),
      { 'skip-authors': '' },
      undefined,
      'pull request #7 is by Mintlify[bot], the Mintlify agent (loop prevention)'
    ],
    [
      "the token's own identity (GraphQL's form of an app)",
      change({ author: 'docs-app[bot]' }),
      {},
      'docs-app',
      "pull request #7 is by docs-app[bot], this workflow's token (loop prevention)"
    ],
    [
      'an author in skip-authors, whatever its case',
      change({ author: 'Dependabot[bot]' }),
      {},
      undefined,
      'pull request #7 is by Dependabot[bot], in skip-authors'
    ],
    [
      'a label in skip-labels',
      change({ labels: ['bug', 'Skip-Docs'] }),
      {},
      undefined,
      'pull request #7 has the label Skip-Docs, in skip-labels'
    ],
    [
      'no file under paths',
      change({ files: [file('test/a.ts'), file('README.md')] }),
      { paths: 'src/**' },
      undefined,
      'no changed file of pull request #7 counts under paths (2 files changed)'
    ],
    [
      'every file in paths-ignore',
      change({ files: [file('test/a.ts')] }),
      { 'paths-ignore': 'test/**' },
      undefined,
      'no changed file of pull request #7 counts under paths-ignore (1 file changed)'
    ],
    [
      'fewer lines than min-changed-lines',
      change({ changedLines: 1 }),
      { 'min-changed-lines': '2' },
      undefined,
      'pull request #7 changed 1 line, fewer than min-changed-lines (2)'
    ]
  ])('skips %s', (_, changed, inputs, self, reason) => {
    expect(gate(gates(inputs), changed, self)).toEqual({ kind: 'skip', reason })
  })

  it.each([
    ['a file renamed away from paths', change({ files: [file('lib/a.ts', 'src/a.ts')] }), { paths: 'src/**' }],
    ['files not read', change({ files: undefined }), { paths: 'src/**' }],
    ['lines not counted', change({ changedLines: undefined }), { 'min-changed-lines': '20' }],
    ['exactly min-changed-lines', change({ changedLines: 20 }), { 'min-changed-lines': '20' }],
    ['a person whose login the token shares no part of', change({ author: 'docs' }), {}]
  ])('lets through %s', (_, changed, inputs) => {
    expect(gate(gates(inputs), changed, 'docs-app')).toEqual({ kind: 'pass' })
  })
})

describe('gatedChangeOf', () => {
  const read = (eventName: string, payload: unknown, files?: ChangedFile[]): EventChange => ({
    facts: factsFromEvent(eventName, payload, 'acme/widgets').facts,
    fetched: files ? { files } : {},
    requests: 0
  })

  it("takes a pull request's author and labels from the event, and its size from GitHub's totals", () => {
    expect(gatedChangeOf(read('pull_request', mergedPullRequest()))).toMatchObject({
      name: 'pull request #128',
      author: 'octocat',
      labels: ['enhancement', 'needs docs'],
      changedLines: 69
    })
  })

  it("takes a push's author from its head commit, and its size from the compare's files", () => {
    const pushed = gatedChangeOf(read('push', pushToMain(), [file('src/a.ts'), file('src/b.ts')]))
    expect(pushed).toMatchObject({ name: 'the push', labels: [], changedLines: 4 })
    expect(pushed?.author).not.toBe('')
  })

  it('lets paths and min-changed-lines through when GitHub listed only some of the files', () => {
    const cut = {
      ...read('push', pushToMain(), [file('test/a.ts')]),
      fetched: { files: [file('test/a.ts')], filesCut: true }
    }
    const pushed = gatedChangeOf(cut)
    expect(pushed).toMatchObject({ filesCut: true, changedLines: undefined })
    if (pushed === undefined) throw new Error('no change to gate')
    expect(gate(gates({ 'paths-ignore': 'test/**', 'min-changed-lines': '50' }), pushed, undefined)).toEqual({
      kind: 'pass'
    })
    const payload = mergedPullRequest() as { pull_request: Record<string, unknown> }
    const counted = { ...payload, pull_request: { ...payload.pull_request, changed_files: 9 } }
    expect(gatedChangeOf(read('pull_request', counted, [file('test/a.ts')]))?.filesCut).toBe(true)
  })

  it.each([
    ['issue_comment', commentOnPullRequest()],
    [
      'pull_request_review_comment',
      { ...mergedPullRequest(), action: 'created', comment: { id: 5, body: 'Why?', user: { login: 'mona' } } }
    ]
  ])('takes the comment, not the pull request, as the author of a %s: one rule for both', (eventName, payload) => {
    const gated = gatedChangeOf(read(eventName, payload))
    expect(gated?.author).toBe('mona')
    expect(gated?.authored).toMatch(/^the comment on pull request #/)
    if (gated === undefined) throw new Error('no change to gate')
    expect(gate(gates({ 'skip-authors': 'mona' }), gated, undefined)).toEqual({
      kind: 'skip',
      reason: `${gated.authored ?? ''} is by mona, in skip-authors`
    })
  })

  it("takes a comment with no author for the pull request's, as before", () => {
    const payload = { ...commentOnPullRequest(), comment: { body: 'x' } }
    const gated = gatedChangeOf(read('issue_comment', payload))
    expect(gated?.author).toBe('octocat')
    expect(gated?.authored).toBeUndefined()
  })

  it("gates a comment on a pull request's conversation by the pull request's files and size, not an issue's", () => {
    const files = [file('test/a.ts'), file('test/b.ts')]
    const onPull = gatedChangeOf(read('issue_comment', commentOnPullRequest(), files))
    expect(onPull).toMatchObject({ files, changedLines: 4 })
    if (onPull === undefined) throw new Error('no change to gate')
    expect(gate(gates({ paths: 'src/**' }), onPull, undefined)).toEqual({
      kind: 'skip',
      reason: 'no changed file of pull request #77 counts under paths (2 files changed)'
    })
    const payload = commentOnPullRequest() as { issue: Record<string, unknown> }
    const onIssue = { ...payload, issue: { ...payload.issue, pull_request: undefined } }
    expect(gatedChangeOf(read('issue_comment', onIssue, files))).toMatchObject({ files: undefined })
  })

  it('has nothing to gate for an event about no change', () => {
    expect(gatedChangeOf(read('workflow_dispatch', {}))).toBeUndefined()
  })
})

describe('capReached', () => {
  it('says nothing without a cap, without a count, or below the cap', () => {
    expect(capReached(settingsOf(), 50)).toBeUndefined()
    expect(capReached(settingsOf({ 'max-jobs-per-hour': '2' }), undefined)).toBeUndefined()
    expect(capReached(settingsOf({ 'max-jobs-per-hour': '2' }), 1)).toBeUndefined()
  })

  it('names the cap and the count once it is reached', () => {
    expect(capReached(settingsOf({ 'max-jobs-per-hour': '2' }), 2)).toBe(
      'max-jobs-per-hour (2) is reached: this action started 2 jobs of project "docs" in this repository in the last 1h, by its own records'
    )
  })
})
