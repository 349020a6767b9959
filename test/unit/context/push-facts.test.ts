import { describe, expect, it } from 'vitest'
import { pushFacts } from '../../../src/context/push-facts.ts'
import { repositoryName } from '../../../src/context/repository-name.ts'
import { NO_COMMIT, pushToMain, SHA_AFTER, SHA_BEFORE } from './event-payloads.ts'

const ACME = repositoryName('acme/widgets', {})

describe('pushFacts', () => {
  it('reads a push, its commits oldest first, and asks to compare before and after', () => {
    const { facts, fetch } = pushFacts(pushToMain(), ACME)
    expect(facts).toMatchObject({
      kind: 'push',
      repository: 'acme/widgets',
      ref: 'refs/heads/main',
      before: SHA_BEFORE,
      after: SHA_AFTER,
      compareUrl: expect.stringContaining('https://github.com/acme/widgets/compare/') as unknown,
      created: false,
      deleted: false,
      forced: false,
      pusher: 'mona',
      commitsTotal: undefined,
      headCommit: { sha: 'bbbbbbb2222222222222222222222222222222222', message: 'Document retries', author: 'Hubot' }
    })
    expect(facts.kind === 'push' && facts.commits.map((commit) => commit.author)).toEqual(['mona', 'Hubot'])
    expect(fetch).toEqual({ kind: 'compare', owner: 'acme', repo: 'widgets', base: SHA_BEFORE, head: SHA_AFTER })
  })

  it.each([
    ['created a branch', { before: NO_COMMIT, created: true }, { created: true, deleted: false }],
    ['created a branch, by its before alone', { before: NO_COMMIT }, { created: true }],
    ['deleted a branch', { after: NO_COMMIT, deleted: true, commits: [] }, { deleted: true, created: false }],
    ['deleted a branch, by its after alone', { after: NO_COMMIT }, { deleted: true }]
  ])('says the push %s, and compares nothing', (_name, change, expected) => {
    const { facts, fetch } = pushFacts({ ...pushToMain(), ...change }, ACME)
    expect(facts).toMatchObject(expected)
    expect(fetch).toEqual({ kind: 'nothing' })
  })

  it.each([
    ['a before that is no commit name', { before: 'main' }],
    ['an after that would move the path', { after: '../../orgs/x' }],
    ['no before', { before: undefined }]
  ])('compares nothing for %s', (_name, change) => {
    expect(pushFacts({ ...pushToMain(), ...change }, ACME).fetch).toEqual({ kind: 'nothing' })
  })

  it('keeps the size the payload gives, and a forced push', () => {
    expect(pushFacts({ ...pushToMain(), size: 31, forced: true }, ACME).facts).toMatchObject({
      commitsTotal: 31,
      forced: true
    })
  })

  it('skips commits that are not objects', () => {
    const { facts } = pushFacts({ ...pushToMain(), commits: [null, 'x', 3, { id: 'c1', message: 'm' }] }, ACME)
    expect(facts.kind === 'push' && facts.commits).toEqual([{ sha: 'c1', message: 'm', author: '' }])
  })

  it.each([null, 'push', [], {}])('adds nothing for the payload %j', (payload) => {
    expect(pushFacts(payload, ACME)).toEqual({
      facts: { kind: 'none', reason: 'the "push" event\'s payload is empty' },
      fetch: { kind: 'nothing' }
    })
  })
})
