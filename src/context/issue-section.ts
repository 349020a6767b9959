import type { CommentFacts, IssueFacts } from './change-facts.ts'
import { quoted } from './quoted.ts'
import { sanitizeBody } from './sanitize.ts'
import type { QuotePlan, SectionPlan } from './section-plan.ts'

function commentLine(comment: CommentFacts): string {
  const url = comment.url ? `, ${quoted(comment.url, '')}` : ''
  return `- Comment that started this run: by ${quoted(comment.author, '(unknown)')}${url}`
}

function commentQuote(comment: CommentFacts): QuotePlan {
  return {
    label: 'Comment that started this run, as written by its author:',
    content: sanitizeBody(comment.body),
    ifEmpty: 'The comment that started this run is empty.'
  }
}

export function issueSection(facts: IssueFacts): SectionPlan {
  const noun = facts.isPullRequest ? 'Pull request' : 'Issue'
  const where = facts.isPullRequest && facts.comment ? ' (a comment on its conversation)' : ''
  return {
    identity: `${noun} #${facts.number} in ${quoted(facts.repository, 'this repository')}${where}`,
    facts: [
      `- Title: ${quoted(facts.title, '(none)')}`,
      ...(facts.url ? [`- URL: ${quoted(facts.url, '')}`] : []),
      `- Author: ${quoted(facts.author, '(unknown)')}`,
      ...(facts.comment ? [commentLine(facts.comment)] : [])
    ],
    commits: undefined,
    files: undefined,
    quotes: [
      {
        label: `${noun} body, as written by its author:`,
        content: sanitizeBody(facts.body),
        ifEmpty: `The ${noun.toLowerCase()} has no body.`
      },
      ...(facts.comment ? [commentQuote(facts.comment)] : [])
    ]
  }
}
