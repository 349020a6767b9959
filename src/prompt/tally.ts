// What the "What changed" section added and what it cut, in numbers, and one line for the log made of our own words
// and numbers: it quotes nothing from the event or GitHub.

/** `1,234`. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US')
}

/** `1 file`, `2 files`, `1 body`, `2 bodies`. */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`
}

const number = formatCount

/** What was added and what was cut, in numbers. */
export interface Tally {
  filesListed: number
  filesLeftOut: number
  commitsListed: number
  commitsLeftOut: number
  /** Diffs shown whole. */
  diffsWhole: number
  /** Diffs cut at a line boundary (at most one: the diffs after it are left out). */
  diffsCut: number
  /** The lines of the cut diff that were left out. */
  diffLinesLeftOut: number
  /** Diffs left out to stay within the limit. */
  diffsLeftOut: number
  /** Diffs skipped because the file is generated: a lock file, a bundle, build output, vendored code. */
  diffsOmittedGenerated: number
  /** Diffs GitHub did not give: binary, very large or unchanged files. */
  diffsOmittedNoPatch: number
  /** Lists (facts, commits, files) cut to stay within the limit. */
  listsCut: number
  /** Bodies cut, or left out, to stay within the limit. */
  bodiesCut: number
  /** Reads from GitHub that failed. */
  unreadable: number
  /** Files GitHub listed without a usable name, left out. */
  filesUnusable: number
}

/** Numbers only, and a summary for the log made of our own words and numbers. */
export interface ContextReport extends Readonly<Tally> {
  readonly limit: number
  /** The section's length; 0 when nothing was added. */
  readonly characters: number
  /** The limit cannot hold even the section's opening lines, so nothing was added. */
  readonly tooSmall: boolean
  /** One line for the log; it quotes nothing from the event or GitHub. */
  readonly summary: string
}

export function emptyTally(): Tally {
  return {
    filesListed: 0,
    filesLeftOut: 0,
    commitsListed: 0,
    commitsLeftOut: 0,
    diffsWhole: 0,
    diffsCut: 0,
    diffLinesLeftOut: 0,
    diffsLeftOut: 0,
    diffsOmittedGenerated: 0,
    diffsOmittedNoPatch: 0,
    listsCut: 0,
    bodiesCut: 0,
    unreadable: 0,
    filesUnusable: 0
  }
}

function diffsPart(tally: Tally): string | undefined {
  const parts = [
    tally.diffsWhole > 0 ? `${number(tally.diffsWhole)} whole` : '',
    tally.diffsCut > 0 ? `${number(tally.diffsCut)} cut (${counted(tally.diffLinesLeftOut, 'line')} left out)` : '',
    tally.diffsLeftOut > 0 ? `${number(tally.diffsLeftOut)} left out for the limit` : '',
    tally.diffsOmittedGenerated > 0 ? `${number(tally.diffsOmittedGenerated)} skipped as generated` : '',
    tally.diffsOmittedNoPatch > 0 ? `${number(tally.diffsOmittedNoPatch)} not given by GitHub` : ''
  ].filter(Boolean)
  return parts.length > 0 ? `diffs: ${parts.join(', ')}` : undefined
}

/** The lists and bodies cut, or that nothing was (the diffs' part says what of them was). */
function cutPart(tally: Tally): string | undefined {
  const cuts = [
    tally.listsCut > 0 ? `${counted(tally.listsCut, 'list')} cut` : '',
    tally.bodiesCut > 0 ? `${counted(tally.bodiesCut, 'body', 'bodies')} cut` : ''
  ].filter(Boolean)
  if (cuts.length > 0) return cuts.join(', ')
  return tally.diffsCut + tally.diffsLeftOut > 0 ? undefined : 'nothing cut'
}

/** The report of a section that was added. */
export function reportOf(limit: number, characters: number, tally: Tally): ContextReport {
  const filesTotal = tally.filesListed + tally.filesLeftOut
  const commitsTotal = tally.commitsListed + tally.commitsLeftOut
  const parts = [
    commitsTotal > 0 ? `${number(tally.commitsListed)} of ${counted(commitsTotal, 'commit')} listed` : undefined,
    filesTotal > 0 ? `${number(tally.filesListed)} of ${counted(filesTotal, 'file')} listed` : undefined,
    diffsPart(tally),
    cutPart(tally),
    tally.unreadable > 0 ? `${counted(tally.unreadable, 'read')} from GitHub failed` : undefined,
    tally.filesUnusable > 0 ? `${counted(tally.filesUnusable, 'file')} from GitHub without a usable name` : undefined
  ].filter((part) => part !== undefined)
  const summary = `Added ${number(characters)} characters of context (limit ${number(limit)}): ${parts.join('; ')}.`
  return { ...tally, limit, characters, tooSmall: false, summary }
}

/** The report of a section that was not added, and why (our own words). */
export function nothingAddedReport(limit: number, why: string, tooSmall: boolean): ContextReport {
  return { ...emptyTally(), limit, characters: 0, tooSmall, summary: `Added no context: ${why}.` }
}
