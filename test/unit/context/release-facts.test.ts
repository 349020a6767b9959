import { describe, expect, it } from 'vitest'
import { releaseFacts } from '../../../src/context/release-facts.ts'
import { repositoryName } from '../../../src/context/repository-name.ts'
import { publishedRelease } from './event-payloads.ts'

describe('releaseFacts', () => {
  it('reads the release and its notes, and asks for nothing more', () => {
    expect(releaseFacts(publishedRelease(), repositoryName('acme/widgets', {}))).toEqual({
      facts: {
        kind: 'release',
        repository: 'acme/widgets',
        tag: 'v2.4.0',
        name: 'Retries',
        url: 'https://github.com/acme/widgets/releases/tag/v2.4.0',
        author: 'octocat',
        body: '## What is new\n\n- `retries` option',
        draft: false,
        prerelease: true
      },
      fetch: { kind: 'nothing' }
    })
  })

  it.each([{}, { release: null }, { release: 'v1' }])('adds nothing for %j', (payload) => {
    expect(releaseFacts(payload, undefined).facts).toEqual({
      kind: 'none',
      reason: 'the "release" event\'s payload has no release'
    })
  })
})
