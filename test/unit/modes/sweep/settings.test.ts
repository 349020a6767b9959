import { describe, expect, it } from 'vitest'
import { InputReader } from '../../../../src/inputs/input-reader.ts'
import { docsTokenProblem, readSweepSettings } from '../../../../src/inputs/sweep-settings.ts'

function read(inputs: Record<string, string>, docsToken = '') {
  const reader = new InputReader({
    getInput: (name) => inputs[name] ?? '',
    getBooleanInput: () => false,
    getMultilineInput: () => [],
    setSecret: () => undefined,
    warning: () => undefined,
    notice: () => undefined
  })
  const settings = readSweepSettings(reader)
  const tokenProblem = docsTokenProblem(settings, docsToken, 'acme/api')
  return { settings, problems: [...reader.problems, ...(tokenProblem ? [tokenProblem] : [])] }
}

const DAY = 86_400_000

describe('readSweepSettings', () => {
  it('only reports by default: no action, ten a run, stale after 14 days, figures of 30 days, the docs at home', () => {
    const { settings, problems } = read({})
    expect(problems).toEqual([])
    expect(settings).toEqual({
      repository: undefined,
      actions: new Set(),
      limit: 10,
      staleAfterMs: 14 * DAY,
      windowMs: 30 * DAY
    })
  })

  it('reads the actions (commas, spaces or lines, any case), the limit and the ages in hours, days or weeks', () => {
    const { settings, problems } = read(
      {
        'docs-repository': 'acme/docs',
        'sweep-actions': 'close-orphaned, Close-Stale\nmerge-approved',
        'sweep-limit': '3',
        'stale-after': '2w',
        'sweep-window': '36h'
      },
      'ghs_docs'
    )
    expect(problems).toEqual([])
    expect([...settings.actions]).toEqual(['close-orphaned', 'close-stale', 'merge-approved'])
    expect(settings).toMatchObject({
      repository: 'acme/docs',
      limit: 3,
      staleAfterMs: 14 * DAY,
      windowMs: 36 * 3_600_000
    })
  })

  it.each([
    [{ 'sweep-actions': 'close-orphaned, delete-branch' }, 'Input "sweep-actions" names what the sweep may do'],
    [{ 'sweep-limit': '0' }, 'Input "sweep-limit" must be a whole number of actions from 1 to 100; got "0".'],
    [{ 'sweep-limit': 'ten' }, 'Input "sweep-limit" must be a whole number of actions from 1 to 100; got "ten".'],
    [{ 'stale-after': '14' }, 'Input "stale-after" must be a length of time such as 14d, 2w or 36h'],
    [{ 'sweep-window': '1y' }, 'Input "sweep-window" must be a length of time such as 14d, 2w or 36h'],
    [{ 'docs-repository': 'acme' }, 'Input "docs-repository" must be a repository as owner/name; got "acme".'],
    [{ 'docs-repository': 'acme/..' }, 'Input "docs-repository" must be a repository as owner/name'],
    [
      { 'docs-repository': 'acme/docs' },
      'Input "docs-token" is required to sweep acme/docs: github-token reaches only acme/api.'
    ]
  ])('names the input in its problem: %j', (inputs, problem) => {
    expect(read(inputs).problems).toEqual([expect.stringContaining(problem)])
  })

  it("needs no docs-token for the workflow's own repository, however it is spelled", () => {
    expect(read({ 'docs-repository': 'Acme/API' }).problems).toEqual([])
  })
})
