// The gates' inputs: the workflow `paths:` syntax as GitHub reads it, and every problem named at once.
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import { countsAsChange, pathFilter } from '../../../src/inputs/gate-settings.ts'

describe('pathFilter', () => {
  it.each([
    [['docs/**'], 'docs/a/b.md', true],
    [['*.md'], 'README.md', true],
    [['*.md'], 'docs/a.md', false],
    [['**/*.md'], 'a.md', true],
    [['**/*.md'], 'docs/deep/a.md', true],
    [['src/**', '!src/**/*.test.ts'], 'src/a.ts', true],
    [['src/**', '!src/**/*.test.ts'], 'src/a.test.ts', false],
    [['src/**', '!src/**/*.test.ts', 'src/keep.test.ts'], 'src/keep.test.ts', true],
    [['.github/**'], '.github/workflows/ci.yml', true],
    [['src/?.ts'], 'src/a.ts', true],
    [['src/?.ts'], 'src/ab.ts', false],
    [['!src/**'], 'src/a.ts', false]
  ])('%j selects %s: %s (the last matching pattern decides)', (patterns, path, selected) => {
    expect(pathFilter(patterns).matches(path)).toBe(selected)
  })

  it('counts a file under paths unless paths-ignore takes it back', () => {
    const { gates } = settingsOf({ paths: 'src/**', 'paths-ignore': '**/*.test.ts' })
    expect(countsAsChange(gates, 'src/a.ts')).toBe(true)
    expect(countsAsChange(gates, 'src/a.test.ts')).toBe(false)
    expect(countsAsChange(gates, 'docs/a.md')).toBe(false)
  })

  it('counts every file without patterns', () => {
    expect(countsAsChange(settingsOf().gates, 'anything/at/all')).toBe(true)
  })
})

describe('reading the gates', () => {
  it('reads the defaults: the usual bots and opt-out labels, no size limit, no cap', () => {
    const settings = settingsOf()
    expect(settings.gates).toMatchObject({
      paths: undefined,
      pathsIgnore: undefined,
      skipLabels: ['no-docs', 'skip-docs'],
      skipAuthors: ['dependabot[bot]', 'renovate[bot]'],
      minChangedLines: 0
    })
    expect(settings.maxJobsPerHour).toBeUndefined()
    expect(settings.noChangeNote).toBe(true)
  })

  it('reads lists comma or newline separated, lower-case, and patterns one a line without comments', () => {
    const settings = settingsOf({ 'skip-labels': 'Docs: None,\nWIP', paths: '# the code\nsrc/**\n\n!src/gen/**' })
    expect(settings.gates.skipLabels).toEqual(['docs: none', 'wip'])
    expect(settings.gates.paths?.patterns).toEqual(['src/**', '!src/gen/**'])
  })

  it('names every invalid gate at once', () => {
    expect(() => settingsOf({ 'min-changed-lines': '-3', 'max-jobs-per-hour': '0', paths: '!' })).toThrow(
      [
        'Input "paths" holds a "!" without a pattern after it.',
        'Input "min-changed-lines" must be a whole number of lines, 0 for none; got "-3".',
        'Input "max-jobs-per-hour" must be a whole number of jobs from 1 to 100 (Mintlify allows 100 an hour), or empty for no cap; got "0".'
      ].join('\n')
    )
  })

  it.each([
    [
      'docs/**, src/**',
      'Input "paths" takes one pattern per line, as a workflow\'s paths: does; got "docs/**, src/**".'
    ],
    ['!docs/**\n!test/**', 'Input "paths" holds only "!" patterns, so no file would ever count'],
    ['**\n!docs/**', undefined]
  ])('reads paths %j: %s', (paths, problem) => {
    if (problem === undefined) expect(settingsOf({ paths }).gates.paths?.patterns).toEqual(['**', '!docs/**'])
    else expect(() => settingsOf({ paths })).toThrow(problem)
  })

  it('needs the token only for the gates that read GitHub', () => {
    expect(settingsOf({ 'github-token': '' }).githubUse.readFiles).toBe(false)
    expect(() => settingsOf({ 'github-token': '', paths: 'src/**' })).toThrow('Input "github-token" is required')
    expect(settingsOf({ paths: 'src/**' }).githubUse).toMatchObject({ readFiles: true, gate: true, countJobs: false })
    expect(settingsOf({ 'max-jobs-per-hour': '5' }).githubUse.countJobs).toBe(true)
  })
})
