import { describe, expect, it } from 'vitest'
import { type Finding, groundingLines, groundingOutputs, groundingRow } from '../../../src/report/grounding-report.ts'

const finding = (name: string, line = 5): Finding => ({
  name,
  path: 'docs/api.mdx',
  line,
  url: `https://github.com/acme/site/blob/${'d'.repeat(40)}/docs/api.mdx#L${line}`
})

describe('grounding in the outputs', () => {
  it.each([
    [undefined, { grounding: '', ungrounded: '' }, null],
    [{ kind: 'passed', names: 4 } as const, { grounding: 'passed', ungrounded: '[]' }, []],
    [{ kind: 'fixed', names: 4 } as const, { grounding: 'fixed', ungrounded: '[]' }, []],
    [{ kind: 'unchecked', reason: 'no access' } as const, { grounding: 'unchecked', ungrounded: '' }, null],
    [
      { kind: 'ungrounded', names: 4, findings: [finding('deleteMany()')] } as const,
      { grounding: 'ungrounded', ungrounded: '[{"name":"deleteMany()","path":"docs/api.mdx","line":5}]' },
      [{ name: 'deleteMany()', path: 'docs/api.mdx', line: 5 }]
    ]
  ])('%#: %j', (grounding, outputs, result) => {
    expect(groundingOutputs(grounding)).toEqual({ outputs, ungrounded: result })
  })
})

describe('grounding in the comment and the summary', () => {
  it('shows a hostile name as inert code: no mention, no markup, no workflow command, no line break', () => {
    const hostile = finding('@mona `x` <img src=x>\n::error::boom')
    const lines = groundingLines({ kind: 'ungrounded', names: 1, findings: [hostile] }).join('\n')
    expect(lines).toContain('- ``@mona `x` <img src=x> ::error::boom`` in ')
    expect(lines.split('\n').filter((line) => line.includes('::error::'))).toHaveLength(1)
    const row = groundingRow({ kind: 'ungrounded', names: 1, findings: [hostile] })[0]?.[1] ?? ''
    expect(row).not.toMatch(/<img|@mona `/)
    expect(row).toContain('&lt;img')
  })

  it('lists at most 10 names, each linked to its line, and counts the rest', () => {
    const findings = Array.from({ length: 12 }, (_, index) => finding(`missing${index}()`, index + 1))
    const lines = groundingLines({ kind: 'ungrounded', names: 12, findings })
    expect(lines.filter((line) => line.startsWith('- `missing'))).toHaveLength(10)
    expect(lines).toContain('- … and 2 more')
    expect(lines[2]).toContain('href="https://github.com/acme/site/blob/')
  })
})
