import { describe, expect, it } from 'vitest'
import { codeSpans, readDocsChange } from '../../../src/after-job/docs-change.ts'
import { addedFile, modifiedFile } from './grounding-support.ts'

const blockLines = (patch: string): { line: number; text: string; language: string | undefined }[] =>
  readDocsChange([modifiedFile('docs/a.md', patch)]).pieces.map((piece) => ({
    line: piece.line,
    text: piece.text,
    language: piece.block?.language
  }))

describe('readDocsChange', () => {
  it('takes the inline code and the fenced lines on added lines, each with its line in the new file', () => {
    const change = readDocsChange([
      addedFile(
        'docs/api.mdx',
        'Call `client.users.list()` first.\n\n```ts\nawait client.users.deleteMany()\n```\nDone.'
      )
    ])
    expect(change.pieces.map((piece) => [piece.line, piece.text, piece.block?.language])).toEqual([
      [1, 'client.users.list()', undefined],
      [4, 'await client.users.deleteMany()', 'ts']
    ])
  })

  it('reads only Markdown and MDX files, and keeps every removed line of any file', () => {
    const change = readDocsChange([
      addedFile('src/index.ts', 'const `x` = 1'),
      modifiedFile('docs/a.md', '@@ -3,2 +3,2 @@\n context\n-Use `deleteOne()`.\n+Use `deleteMany()`.'),
      modifiedFile('openapi.json', '@@ -1 +1 @@\n-"oldName"\n+"newName"')
    ])
    expect(change.pieces.map((piece) => piece.text)).toEqual(['deleteMany()'])
    expect(change.removed).toEqual(['Use `deleteOne()`.', '"oldName"'])
  })

  it('names the Markdown files GitHub gave no patch for', () => {
    const change = readDocsChange([
      { path: 'docs/huge.md', status: 'modified', additions: 4000, deletions: 0 },
      { path: 'docs/gone.md', status: 'removed', additions: 0, deletions: 3 },
      { path: 'logo.png', status: 'added', additions: 0, deletions: 0 }
    ])
    expect(change.withoutPatch).toEqual(['docs/huge.md'])
  })

  it('tracks a fence opened in one hunk and closed in the next when the gap shows no fence', () => {
    const patch =
      '@@ -1,3 +1,4 @@\n Intro\n \n ```js\n+const a = 1\n@@ -40,2 +41,3 @@\n+callMe()\n ```\n Prose with `inline()`.'
    expect(blockLines(patch)).toEqual([
      { line: 4, text: 'const a = 1', language: 'js' },
      { line: 41, text: 'callMe()', language: 'js' }
    ])
  })

  it('after a gap, reads a bare fence followed by a blank line as the close of a block', () => {
    const patch = '@@ -20,3 +20,5 @@\n const program = new Command();\n ```\n \n+## Options\n+Use `.option()` here.'
    expect(blockLines(patch)).toEqual([{ line: 24, text: '.option()', language: undefined }])
  })

  it('after a gap, reads a fence with a language as an opening, and a heading as prose', () => {
    expect(blockLines('@@ -1,2 +1,2 @@\n ```sh\n+npm i x\n@@ -30,2 +30,3 @@\n ```bash\n+run --fast\n ```')).toEqual([
      { line: 2, text: 'npm i x', language: 'sh' },
      { line: 31, text: 'run --fast', language: 'bash' }
    ])
    expect(blockLines('@@ -1,2 +1,2 @@\n ```js\n+a()\n@@ -30,2 +30,3 @@\n ## Usage\n+Call `b()`.')).toEqual([
      { line: 2, text: 'a()', language: 'js' },
      { line: 31, text: 'b()', language: undefined }
    ])
  })

  it('keeps a longer fence open across shorter fences inside it', () => {
    const change = readDocsChange([addedFile('a.md', '````md\n```js\nx()\n```\n````\n`after()`')])
    expect(change.pieces.map((piece) => [piece.text, piece.block?.language ?? 'inline'])).toEqual([
      ['```js', 'md'],
      ['x()', 'md'],
      ['```', 'md'],
      ['after()', 'inline']
    ])
  })
})

describe('codeSpans', () => {
  it('pairs runs of backticks of the same length, and strips one space of padding', () => {
    expect(codeSpans('a `one` b ``two ` ticks`` c ` padded `')).toEqual(['one', 'two ` ticks', 'padded'])
  })

  it('skips an unclosed run, an escaped backtick, and a span that is the whole text of a link away', () => {
    expect(codeSpans('\\`not and `lonely')).toEqual([])
    expect(codeSpans('[`react-scripts`](https://npmjs.com/package/react-scripts) and [`ky.stop`](#kystop)')).toEqual([
      'ky.stop'
    ])
  })
})
