// The section's lists within the budget: the facts (and notes of what could not be read), the commits, the files.
import type { Budget } from './budget.ts'
import { counted } from './counted.ts'
import { addList } from './fit-list.ts'
import type { Tally } from './report.ts'
import { sanitizeLine } from './sanitize.ts'
import type { SectionPlan } from './section-plan.ts'

/** Adds the facts, then the notes (our own words) of what GitHub did not give. */
export function addFacts(budget: Budget, plan: SectionPlan, notes: readonly string[], tally: Tally): void {
  const items = [...plan.facts, ...notes.map((line) => `- Note: ${sanitizeLine(line, 200)}`)]
  const leftOutNote = (count: number): string => `- … ${counted(count, 'more fact')} left out`
  const fitted = addList(budget, { heading: undefined, items, alreadyLeftOut: 0, leftOutNote })
  if (fitted.cut) tally.listsCut += 1
}

/** Adds the commits, then the files, and says which of the files' diffs may follow. */
export function addLists(budget: Budget, plan: SectionPlan, tally: Tally): SectionPlan['files'] {
  if (plan.commits) {
    const fitted = addList(budget, plan.commits.list)
    tally.commitsListed = fitted.listed
    tally.commitsLeftOut = plan.commits.total - fitted.listed
    if (fitted.cut) tally.listsCut += 1
  }
  if (!plan.files) return undefined
  const fitted = addList(budget, plan.files.list)
  const { skipped, diffs, total } = plan.files
  tally.filesListed = fitted.listed
  tally.filesLeftOut = total - fitted.listed
  tally.diffsSkippedGenerated = skipped.generated
  tally.diffsSkippedNoPatch = skipped.noPatch
  if (fitted.cut) tally.listsCut += 1
  // A diff follows only a file that was listed.
  const shown = diffs.filter((diff) => diff.index < fitted.listed)
  tally.diffsLeftOut += diffs.length - shown.length
  return { ...plan.files, diffs: shown }
}
