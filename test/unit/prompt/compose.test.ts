import { describe, expect, it } from 'vitest'
import { mergedPullRequest } from '../support/event-payloads.ts'
import { readFences } from '../support/markdown-reader.ts'
import { settingsOf } from '../../../sim/settings.ts'
import type { ChangedFile, FetchedChanges, PullRequestFacts } from '../../../src/github/change.ts'
import { factsFromEvent } from '../../../src/github/event.ts'
import { type BatchMaterial, composeBatch, fairShares } from '../../../src/prompt/compose.ts'

const PROMPT = 'Update the docs for everything merged below.'

function pull(number: number, body = `Body of #${number}.`): { facts: PullRequestFacts } {
  const payload = mergedPullRequest()
  Object.assign(payload['pull_request'] as object, {
    number,
    title: `Change ${number}`,
    body,
    html_url: `https://github.com/acme/api/pull/${number}`,
    changed_files: 1
  })
  const facts = factsFromEvent('pull_request', payload, 'acme/api').facts
  if (facts.kind !== 'pull-request') throw new Error('not a pull request')
  return { facts }
}

function file(path: string, lines: number): ChangedFile {
  const patch = [`@@ -1 +1,${lines} @@`, ...Array.from({ length: lines }, (_, i) => `+line ${i} of ${path}`)]
  return { path, status: 'modified', additions: lines, deletions: 0, patch: patch.join('\n') }
}

function material(parts: { number: number; fetched: FetchedChanges; body?: string }[]): BatchMaterial {
  return {
    branch: 'main',
    parts: parts.map((part) => ({ pull: pull(part.number, part.body), fetched: part.fetched })),
    direct: [],
    leftOut: []
  }
}

const compose = (batch: BatchMaterial, limit = 20_000): string =>
  composeBatch(PROMPT, settingsOf({ 'context-limit': String(limit) }), batch, (text) => text)

describe('fairShares', () => {
  it('gives small parts all they need and splits what is left evenly among the large ones', () => {
    expect(fairShares([100, 5000, 200, 9000], 3000)).toEqual([100, 1350, 200, 1350])
  })

  it('never gives out more than the room, whatever the sizes', () => {
    for (const sizes of [[1], [10, 10, 10], [0, 7, 10_000, 3], [5000, 5000, 5000]]) {
      for (const room of [0, 1, 29, 1000, 12_345]) {
        const shares = fairShares(sizes, room)
        expect(shares.reduce((sum, share) => sum + share, 0)).toBeLessThanOrEqual(room)
        shares.forEach((share, index) => expect(share).toBeLessThanOrEqual(sizes[index] ?? 0))
      }
    }
  })
})

describe('composeBatch', () => {
  it('tells each pull request whole, oldest first, body and diffs fenced as material, when all of it fits', () => {
    const prompt = compose(
      material([
        { number: 51, fetched: { files: [file('src/a.ts', 3)] } },
        { number: 53, fetched: { files: [file('src/b.ts', 3)] } }
      ])
    )
    expect(prompt.startsWith(`${PROMPT}\n\n`)).toBe(true)
    expect(prompt).toContain('This batch covers 2 pull requests, oldest first: #51, #53, merged into `main`.')
    expect(prompt.indexOf('### Pull request #51')).toBeLessThan(prompt.indexOf('### Pull request #53'))
    expect(prompt).not.toContain('left out')
    const read = readFences(prompt)
    expect(read.unclosed).toBe(false)
    expect(read.blocks.map((block) => block.info)).toEqual(['markdown', 'diff', 'markdown', 'diff'])
    expect(read.blocks[0]?.content).toBe('Body of #51.')
  })

  it('keeps the small pull requests whole when a large one would take the whole context limit', () => {
    const prompt = compose(
      material([
        { number: 51, fetched: { files: [file('src/small.ts', 2)] } },
        { number: 52, fetched: { files: [file('src/huge.ts', 4000)] } },
        { number: 53, fetched: { files: [file('src/other.ts', 2)] } }
      ]),
      8000
    )
    expect(prompt.length).toBeLessThanOrEqual(PROMPT.length + 8000 + 200)
    expect(prompt).toContain('+line 1 of src/small.ts')
    expect(prompt).toContain('+line 1 of src/other.ts')
    expect(prompt).toContain('### Pull request #52')
    expect(prompt).toMatch(/more lines of this diff left out to stay within the context limit/)
  })

  it('names the pull requests left out when not even their heading fits', () => {
    const parts = Array.from({ length: 30 }, (_, index) => ({
      number: 100 + index,
      fetched: { files: [file(`src/f${index}.ts`, 50)] }
    }))
    const prompt = compose(material(parts), 2000)
    expect(prompt).toMatch(/Left out for the context limit: #\d+/)
    expect(prompt.length).toBeLessThanOrEqual(PROMPT.length + 2000 + 200)
  })

  it('lists the gates’ skips and the commits pushed without a pull request', () => {
    const batch: BatchMaterial = {
      ...material([{ number: 51, fetched: {} }]),
      direct: [{ sha: 'f'.repeat(40), message: 'Fix a typo\n\nlonger text', author: 'hubot' }],
      leftOut: [{ number: 52, reason: 'only paths-ignore files changed' }]
    }
    const prompt = compose(batch)
    expect(prompt).toContain('Left out by the gates, as nothing a reader of the docs would see: #52.')
    expect(prompt).toContain('### Commits pushed to `main` without a pull request (1)\n- `fffffff` `Fix a typo`')
  })
})
