import { describe, expect, it } from 'vitest'
import { fencedPiece, type FencedPiecePlan } from '../../../src/context/fenced-piece.ts'

const content = [
  'first line of the body',
  'second line',
  'third line, which goes on for a while',
  'fourth line, which goes on too'
].join('\n')
const plan = (room: number): FencedPiecePlan => ({
  label: 'Body:',
  content,
  info: 'markdown',
  wholeRoom: room,
  cutRoom: room,
  cutNote: (lines) => `… ${lines} more lines left out.`
})
const whole = ['', 'Body:', '```markdown', content, '```', ''].join('\n')

describe('fencedPiece', () => {
  it('is whole when it fits', () => {
    expect(fencedPiece(plan(whole.length))).toEqual({ kind: 'whole', text: whole })
  })

  it('is cut at a line boundary, closed, with a note of the lines left out', () => {
    const cut = '\nBody:\n```markdown\nfirst line of the body\nsecond line\n```\n… 2 more lines left out.\n'
    expect(fencedPiece(plan(cut.length))).toEqual({ kind: 'cut', text: cut, linesLeftOut: 2 })
    expect(fencedPiece(plan(cut.length + 16))).toMatchObject({ kind: 'cut', linesLeftOut: 2 })
  })

  it('is none when not even its first line fits with the note', () => {
    expect(fencedPiece(plan(60))).toEqual({ kind: 'none', lines: 4 })
  })

  it('keeps room for a note that is longer when fewer lines are left out', () => {
    const lines = Array.from({ length: 12 }, (_, i) => `l${i}`).join('\n')
    const note = (left: number): string => (left < 10 ? `… only ${left} more lines, a longer note` : `… ${left}`)
    for (let room = 0; room < 120; room += 1) {
      const piece = fencedPiece({ ...plan(room), content: lines, cutNote: note })
      if (piece.kind !== 'none') expect(piece.text.length).toBeLessThanOrEqual(room)
    }
  })

  it('is cut when it fits only in the room for a cut piece', () => {
    const piece = fencedPiece({ ...plan(200), wholeRoom: whole.length - 1 })
    expect(piece).toMatchObject({ kind: 'cut', linesLeftOut: 1 })
  })
})
