import type { ReleaseFacts } from './change-facts.ts'
import { quoted } from './quoted.ts'
import { sanitizeBody } from './sanitize.ts'
import type { SectionPlan } from './section-plan.ts'

export function releaseSection(facts: ReleaseFacts): SectionPlan {
  const flags = [facts.draft ? 'a draft' : '', facts.prerelease ? 'a pre-release' : ''].filter(Boolean)
  return {
    identity: `Release ${quoted(facts.tag, '(untagged)')} in ${quoted(facts.repository, 'this repository')}${flags.map((flag) => `, ${flag}`).join('')}`,
    facts: [
      `- Name: ${quoted(facts.name, '(none)')}`,
      ...(facts.url ? [`- URL: ${quoted(facts.url, '')}`] : []),
      `- Author: ${quoted(facts.author, '(unknown)')}`
    ],
    commits: undefined,
    files: undefined,
    quotes: [
      {
        label: 'Release notes, as written by their author:',
        content: sanitizeBody(facts.body),
        ifEmpty: 'The release has no notes.'
      }
    ]
  }
}
