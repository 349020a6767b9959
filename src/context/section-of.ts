import type { ChangeFacts } from './change-facts.ts'
import type { FetchedChanges } from './fetched-changes.ts'
import { issueSection } from './issue-section.ts'
import { pullRequestSection } from './pull-request-section.ts'
import { pushSection } from './push-section.ts'
import { releaseSection } from './release-section.ts'
import type { SectionPlan } from './section-plan.ts'

/** What the section says about this kind of change. */
export function sectionOf(facts: Exclude<ChangeFacts, { kind: 'none' }>, fetched: FetchedChanges): SectionPlan {
  switch (facts.kind) {
    case 'pull-request':
      return pullRequestSection(facts, fetched)
    case 'push':
      return pushSection(facts, fetched)
    case 'release':
      return releaseSection(facts)
    case 'issue':
      return issueSection(facts)
  }
}
