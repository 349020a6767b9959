import { describe, expect, it } from 'vitest'
import { codeSpan, fenceFor } from '../../../src/context/fence.ts'
import { readCodeSpans, readFences } from './markdown-reader.ts'
import { seededRandom } from './seeded-random.ts'

describe('fenceFor', () => {
  it.each([
    ['plain text', 'Adds retries.', '```'],
    ['a fence of three backticks', 'text\n```\n## Injected heading', '````'],
    ['a run of nine backticks mid-line', 'see `````````` here', '```````````'],
    ['tildes, which cannot close a backtick fence', '~~~\n~~~~~~', '```'],
    ['an indented fence', '   ````\nx', '`````']
  ])('holds %s inside one block', (_name, content, fence) => {
    const { open, close } = fenceFor(content, 'markdown')
    expect({ open, close }).toEqual({ open: `${fence}markdown`, close: fence })
    expect(readFences(['before', open, content, close, 'after'].join('\n'))).toEqual({
      outside: ['before', 'after'],
      blocks: [{ info: 'markdown', content }],
      unclosed: false
    })
  })

  it('gives the same fence for a part of the content as for the whole', () => {
    expect(fenceFor('a\n`````\nb', 'diff')).toEqual({ open: '``````diff', close: '``````' })
  })
})

describe('codeSpan', () => {
  it.each([
    ['a word', 'main', '`main`'],
    ['a backtick inside', 'a`b', '``a`b``'],
    ['two backticks inside', 'a``b', '```a``b```'],
    ['a backtick at the start', '`rm -rf`', '`` `rm -rf` ``'],
    ['spaces at both ends', ' padded ', '`  padded  `'],
    ['a space at one end', ' lead', '`  lead `']
  ])('quotes %s so that it reads back as it was', (_name, text, span) => {
    expect(codeSpan(text)).toBe(span)
    expect(readCodeSpans(`x ${span} y`)).toEqual({ spans: [text], plain: 'x  y' })
  })

  it('reads back any text made of backticks, spaces and letters', () => {
    const alphabet = ['`', '``', ' ', 'a', '*', '[', ']']
    const random = seededRandom(7)
    for (let round = 0; round < 500; round += 1) {
      const length = 1 + Math.floor(random() * 9)
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')
      if (text.trim() === '') continue
      expect(readCodeSpans(`- ${codeSpan(text)} after`)).toEqual({ spans: [text], plain: '-  after' })
    }
  })
})
