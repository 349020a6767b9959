import { describe, expect, it } from 'vitest'
import { factsFromEvent } from '../../../src/context/facts-from-event.ts'
import { releaseSection } from '../../../src/context/release-section.ts'
import { publishedRelease } from './event-payloads.ts'

describe('releaseSection', () => {
  it('names the release and its flags, and quotes its notes', () => {
    const facts = factsFromEvent('release', publishedRelease(), 'acme/widgets').facts
    if (facts.kind !== 'release') throw new Error('not a release')
    expect(releaseSection(facts)).toEqual({
      identity: 'Release `v2.4.0` in `acme/widgets`, a pre-release',
      facts: [
        '- Name: `Retries`',
        '- URL: `https://github.com/acme/widgets/releases/tag/v2.4.0`',
        '- Author: `octocat`'
      ],
      commits: undefined,
      files: undefined,
      quotes: [
        {
          label: 'Release notes, as written by their author:',
          content: '## What is new\n\n- `retries` option',
          ifEmpty: 'The release has no notes.'
        }
      ]
    })
    expect(releaseSection({ ...facts, draft: true, prerelease: false }).identity).toBe(
      'Release `v2.4.0` in `acme/widgets`, a draft'
    )
  })
})
