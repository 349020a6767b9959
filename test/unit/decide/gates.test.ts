// Whether a change is worth a job: each gate, in the order they are asked, and what the reason says.
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import type { ChangedFile, EventChange } from '../../../src/github/change.ts'
import { factsFromEvent } from '../../../src/github/event.ts'
import type { StepSetup } from '../../../src/decide/decision.ts'
import {
  capReached,
  skipReason,
  type GatedChange,
  gatedChangeOf,
  jobCap,
  type TokenSelf,
  tokenSelves
} from '../../../src/decide/gates.ts'
import type { GitHubReads, JobCount } from '../../../src/github/reads.ts'
import { changedFile, commentOnPullRequest, mergedPullRequest, pushToMain } from '../support/event-payloads.ts'

const change = (overrides: Partial<GatedChange> = {}): GatedChange => ({
  name: 'pull request #7',
  author: 'octocat',
  labels: [],
  files: undefined,
  changedLines: undefined,
  ...overrides
})
const file = changedFile
const gates = (inputs: Record<string, string> = {}) => settingsOf(inputs).gates
const own = (login: string): TokenSelf[] => [{ input: 'github-token', login }]

describe('skipReason', () => {
  it('lets a change by a person through', () => {
    expect(skipReason(gates(), change(), [])).toBeUndefined()
  })

  it.each([
    [
      'the Mintlify agent, even with skip-authors empty',
      change({ author: 'Mintlify[bot]' }),
      { 'skip-authors': '' },
      [],
      'pull request #7 is by Mintlify[bot], the Mintlify agent (loop prevention)'
    ],
    [
      "the token's own identity (GraphQL's form of an app)",
      change({ author: 'docs-app[bot]' }),
      {},
      own('docs-app'),
      "pull request #7 is by docs-app[bot], this workflow's token (loop prevention)"
    ],
    [
      "a person's token's own user",
      change({ author: 'Octocat' }),
      {},
      own('octocat'),
      "pull request #7 is by Octocat, this workflow's token (loop prevention)"
    ],
    [
      "docs-token's identity",
      change({ author: 'docs-app[bot]' }),
      {},
      [...own('github-actions[bot]'), { input: 'docs-token', login: 'docs-app' } as const],
      'pull request #7 is by docs-app[bot], the identity of docs-token (loop prevention)'
    ],
    [
      "an app, when GitHub did not say who docs-token acts as: it may be docs-token's",
      change({ author: 'docs-app[bot]' }),
      {},
      [{ input: 'docs-token', login: undefined } as const],
      'pull request #7 is by docs-app[bot], an app that may be the identity of docs-token, which GitHub did not name; run the step again to try once more (loop prevention)'
    ],
    [
      'an author in skip-authors, whatever its case',
      change({ author: 'Dependabot[bot]' }),
      {},
      [],
      'pull request #7 is by Dependabot[bot], in skip-authors'
    ],
    [
      'a label in skip-labels',
      change({ labels: ['bug', 'Skip-Docs'] }),
      {},
      [],
      'pull request #7 has the label Skip-Docs, in skip-labels'
    ],
    [
      'no file under paths',
      change({ files: [file('test/a.ts'), file('README.md')] }),
      { paths: 'src/**' },
      [],
      'no changed file of pull request #7 counts under paths (2 files changed)'
    ],
    [
      'every file in paths-ignore',
      change({ files: [file('test/a.ts')] }),
      { 'paths-ignore': 'test/**' },
      [],
      'no changed file of pull request #7 counts under paths-ignore (1 file changed)'
    ],
    [
      'fewer lines than min-changed-lines',
      change({ changedLines: 1 }),
      { 'min-changed-lines': '2' },
      [],
      'pull request #7 changed 1 line, fewer than min-changed-lines (2)'
    ]
  ])('skips %s', (_, changed, inputs, self, reason) => {
    expect(skipReason(gates(inputs), changed, self)).toBe(reason)
  })

  it.each([
    ['a file renamed away from paths', change({ files: [file('lib/a.ts', 'src/a.ts')] }), { paths: 'src/**' }],
    ['files not read', change({ files: undefined }), { paths: 'src/**' }],
    ['lines not counted', change({ changedLines: undefined }), { 'min-changed-lines': '20' }],
    ['exactly min-changed-lines', change({ changedLines: 20 }), { 'min-changed-lines': '20' }],
    ['a person whose login the token shares no part of', change({ author: 'docs' }), {}]
  ])('lets through %s', (_, changed, inputs) => {
    expect(skipReason(gates(inputs), changed, own('docs-app'))).toBeUndefined()
  })

  it("lets a person's change through when GitHub did not say who a token acts as: only an app's may be a token's", () => {
    const unknown = [{ input: 'github-token', login: undefined } as const]
    expect(skipReason(gates({}), change({ author: 'mona' }), unknown)).toBeUndefined()
  })
})

describe('tokenSelves', () => {
  const asked = async (inputs: Record<string, string>, author: string) => {
    const calls: string[] = []
    const reads = {
      login: () => (calls.push('github-token'), Promise.resolve('me')),
      docsLogin: () => (calls.push('docs-token'), Promise.resolve('docs-app'))
    }
    const selves = await tokenSelves(settingsOf({ prompt: 'Document it', ...inputs }), reads, author)
    return { calls, selves }
  }

  it.each([
    ["the workflow's token, on a person's change: nothing", { 'github-token': 'ghs_workflow' }, 'octocat', []],
    ["the workflow's token, on an app's change", { 'github-token': 'ghs_workflow' }, 'docs-app[bot]', ['github-token']],
    ["a person's token, on a person's change", { 'github-token': 'ghp_person' }, 'octocat', ['github-token']],
    ["a person's fine-grained token", { 'github-token': 'github_pat_person' }, 'octocat', ['github-token']],
    ['a token the step uses anyway', { 'github-token': 'ghs_workflow', comment: 'true' }, 'octocat', ['github-token']],
    [
      "an app's docs-token, on an app's change",
      { 'github-token': 'ghs_workflow', 'docs-token': 'ghs_docs' },
      'docs-app[bot]',
      ['github-token', 'docs-token']
    ],
    ["an app's docs-token, on a person's change", { 'github-token': 'ghs_w', 'docs-token': 'ghs_docs' }, 'octocat', []],
    ["a person's docs-token, on that person's change: theirs to document", { 'docs-token': 'github_pat_d' }, 'mona', []]
  ])('asks GitHub who %s acts as only where the change may be its own', async (_, inputs, author, tokens) => {
    const { calls, selves } = await asked(inputs, author)
    expect(calls).toEqual(tokens)
    expect(selves.map((self) => self.input)).toEqual(tokens)
  })
})

describe('gatedChangeOf', () => {
  const read = (eventName: string, payload: unknown, files?: ChangedFile[]): EventChange => ({
    facts: factsFromEvent(eventName, payload, 'acme/widgets').facts,
    fetched: files ? { files } : {},
    calls: 0
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
    expect(skipReason(gates({ 'paths-ignore': 'test/**', 'min-changed-lines': '50' }), pushed, [])).toBeUndefined()
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
    expect(skipReason(gates({ 'skip-authors': 'mona' }), gated, [])).toBe(
      `${gated.authored ?? ''} is by mona, in skip-authors`
    )
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
    expect(skipReason(gates({ paths: 'src/**' }), onPull, [])).toBe(
      'no changed file of pull request #77 counts under paths (2 files changed)'
    )
    const payload = commentOnPullRequest() as { issue: Record<string, unknown> }
    const onIssue = { ...payload, issue: { ...payload.issue, pull_request: undefined } }
    expect(gatedChangeOf(read('issue_comment', onIssue, files))).toMatchObject({ files: undefined })
  })

  it('has nothing to gate for an event about no change', () => {
    expect(gatedChangeOf(read('workflow_dispatch', {}))).toBeUndefined()
  })
})

describe('capReached', () => {
  it('says nothing without a cap, or below the cap', () => {
    expect(capReached(settingsOf(), 50)).toBeUndefined()
    expect(capReached(settingsOf({ 'max-jobs-per-hour': '2' }), 1)).toBeUndefined()
  })

  it('names the cap and the count once it is reached', () => {
    expect(capReached(settingsOf({ 'max-jobs-per-hour': '2' }), 2)).toBe(
      'max-jobs-per-hour (2) is reached: this action started 2 jobs of project "docs" in this repository in the last 1h, by its own records'
    )
  })
})

describe('jobCap', () => {
  /** The decision with max-jobs-per-hour 2 (or none: empty), when GitHub's records count this. */
  function decide(count: JobCount, cap = '2') {
    const reads = { startsSince: () => Promise.resolve(count) } as unknown as GitHubReads
    const settings = settingsOf({ 'max-jobs-per-hour': cap })
    const setup = { settings, reads, clock: { date: () => 0 }, runId: '1', step: 'docs/agent' }
    return jobCap(setup as unknown as StepSetup)
  }

  it('goes on below the cap, and without one', async () => {
    expect(await decide({ kind: 'counted', starts: 1 })).toBeUndefined()
    expect(await decide({ kind: 'uncounted', why: 'GitHub failed' }, '')).toBeUndefined()
  })

  it('ends rate-limited once the cap is reached', async () => {
    expect(await decide({ kind: 'counted', starts: 2 })).toMatchObject({ kind: 'rate-limited' })
  })

  it('starts nothing when the jobs cannot be counted: a cap that cannot be counted is not lifted', async () => {
    expect(await decide({ kind: 'uncounted', why: 'GitHub refused to list the comments (HTTP 403)' })).toEqual({
      kind: 'error',
      reason:
        'max-jobs-per-hour (2): the jobs started in the last 1h could not be counted, GitHub refused to list the comments (HTTP 403). Nothing was sent to the agent; run the step again later, or remove max-jobs-per-hour to start jobs without it.'
    })
  })
})
