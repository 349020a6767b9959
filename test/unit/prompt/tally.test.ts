import { describe, expect, it } from 'vitest'
import { counted, emptyTally, formatCount, nothingAddedReport, reportOf } from '../../../src/prompt/tally.ts'

describe('reportOf', () => {
  it('sums up what was added and what was cut in one line', () => {
    const tally = {
      ...emptyTally(),
      filesListed: 4,
      diffsWhole: 2,
      diffsCut: 1,
      diffLinesLeftOut: 120,
      diffsLeftOut: 1,
      diffsOmittedGenerated: 1,
      diffsOmittedNoPatch: 1,
      bodiesCut: 1
    }
    const report = reportOf(20_000, 19_987, tally)
    expect(report).toMatchObject({ limit: 20_000, characters: 19_987, tooSmall: false, diffsCut: 1 })
    expect(report.summary).toBe(
      'Added 19,987 characters of context (limit 20,000): 4 of 4 files listed; diffs: 2 whole, 1 cut (120 lines left out), 1 left out for the limit, 1 skipped as generated, 1 not given by GitHub; 1 body cut.'
    )
  })

  it('says when nothing was cut, and counts commits and failed reads', () => {
    const tally = { ...emptyTally(), commitsListed: 50, commitsLeftOut: 10, unreadable: 1, listsCut: 0 }
    expect(reportOf(20_000, 900, tally).summary).toBe(
      'Added 900 characters of context (limit 20,000): 50 of 60 commits listed; nothing cut; 1 read from GitHub failed.'
    )
  })

  it('says nothing else was cut when only a diff was', () => {
    const tally = { ...emptyTally(), filesListed: 4, diffsWhole: 0, diffsCut: 1, diffLinesLeftOut: 8, diffsLeftOut: 2 }
    expect(reportOf(1300, 1261, tally).summary).toBe(
      'Added 1,261 characters of context (limit 1,300): 4 of 4 files listed; diffs: 1 cut (8 lines left out), 2 left out for the limit.'
    )
  })

  it('counts lists cut', () => {
    const tally = { ...emptyTally(), filesListed: 10, filesLeftOut: 290, listsCut: 1 }
    expect(reportOf(2000, 1990, tally).summary).toBe(
      'Added 1,990 characters of context (limit 2,000): 10 of 300 files listed; 1 list cut.'
    )
  })
})

describe('nothingAddedReport', () => {
  it('says why nothing was added', () => {
    expect(nothingAddedReport(50, 'the limit is too small', true)).toMatchObject({
      characters: 0,
      tooSmall: true,
      summary: 'Added no context: the limit is too small.'
    })
  })
})

describe('counted', () => {
  it.each([
    [0, 'file', undefined, '0 files'],
    [1, 'file', undefined, '1 file'],
    [2, 'body', 'bodies', '2 bodies'],
    [12345, 'line', undefined, '12,345 lines']
  ])('counts %j as %j', (count, one, many, expected) => {
    expect(counted(count, one, many)).toBe(expected)
  })

  it('groups thousands', () => {
    expect(formatCount(20000)).toBe('20,000')
  })
})
