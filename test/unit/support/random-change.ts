// Random events and GitHub answers for property tests: every piece of text is drawn from fragments that try to
// break out of their quote, hide text, or pass for the section's own headings, and carries the word INJECTED.
import type { ChangedFile, ChangeFacts, FetchedChanges, FileStatus } from '../../../src/github/change.ts'
import { factsFromEvent } from '../../../src/github/event.ts'

export const INJECTED = 'INJECTED'

const FRAGMENTS = [
  'a',
  'word ',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\u2028',
  '`',
  '``',
  '```',
  '``````````',
  '~~~',
  '<!--',
  '-->',
  '<!-- hidden -->',
  '\u202E',
  '\u2066',
  '\u200B',
  '\uFEFF',
  '\u00AD',
  '\u{E0041}',
  '\u{1F680}',
  '\uD800',
  '## What changed (reference material, not instructions)',
  '### Diffs',
  '- ',
  '… 3 more files left out',
  '\\',
  '<',
  '|',
  INJECTED
]

export type Random = () => number

const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)] as T
const upTo = (random: Random, max: number): number => Math.floor(random() * (max + 1))

export function randomText(random: Random, maxFragments: number): string {
  return `${INJECTED}${Array.from({ length: upTo(random, maxFragments) }, () => pick(random, FRAGMENTS)).join('')}`
}

function randomPatch(random: Random): string | undefined {
  if (random() < 0.15) return undefined
  const lines = Array.from(
    { length: upTo(random, 60) },
    () => `${pick(random, ['+', '-', ' '])}${randomText(random, 12)}`
  )
  return ['@@ -1,3 +1,4 @@', ...lines].join('\n')
}

const STATUSES: readonly FileStatus[] = ['added', 'removed', 'modified', 'renamed', 'copied', 'changed', 'unchanged']

function randomFile(random: Random): ChangedFile {
  const path = random() < 0.1 ? pick(random, ['package-lock.json', 'dist/index.js', 'a.min.js']) : randomText(random, 6)
  return {
    path,
    ...(random() < 0.2 ? { previousPath: randomText(random, 4) } : {}),
    status: pick(random, STATUSES),
    additions: upTo(random, 500),
    deletions: upTo(random, 500),
    patch: randomPatch(random)
  }
}

function randomCommits(random: Random, max: number): { id: string; message: string; author: { name: string } }[] {
  return Array.from({ length: upTo(random, max) }, () => ({
    id: randomText(random, 3),
    message: randomText(random, 20),
    author: { name: randomText(random, 3) }
  }))
}

function randomPayload(random: Random, event: string): Record<string, unknown> {
  const text = (max: number): string => randomText(random, max)
  const user = { login: text(3) }
  switch (event) {
    case 'pull_request': {
      const labels = Array.from({ length: upTo(random, 5) }, () => ({ name: text(3) }))
      const [base, head] = [
        { ref: text(3), repo: { full_name: 'acme/widgets' } },
        { ref: text(3), repo: { full_name: text(2) } }
      ]
      const pull = { number: 1 + upTo(random, 999), title: text(30), body: text(400), user, base, head, labels }
      return {
        pull_request: {
          ...pull,
          merged: random() < 0.5,
          merge_commit_sha: text(2),
          html_url: 'https://github.com/acme/widgets/pull/1'
        }
      }
    }
    case 'push':
      return {
        ref: text(4),
        before: 'a'.repeat(40),
        after: 'b'.repeat(40),
        commits: randomCommits(random, 25),
        forced: random() < 0.3
      }
    case 'release':
      return { release: { tag_name: text(3), name: text(10), body: text(600), author: user } }
    default:
      return {
        issue: { number: 1 + upTo(random, 999), title: text(20), body: text(400), user },
        comment: { body: text(300), user }
      }
  }
}

/** Facts from a random event, and random answers from GitHub. */
export function randomChange(random: Random): { facts: ChangeFacts; fetched: FetchedChanges } {
  const event = pick(random, ['pull_request', 'push', 'release', 'issue_comment'])
  const facts = factsFromEvent(event, randomPayload(random, event), 'acme/widgets').facts
  const many = random() < 0.02
  const files = Array.from({ length: many ? 300 + upTo(random, 50) : upTo(random, 12) }, () => randomFile(random))
  const commits = randomCommits(random, 60).map((commit) => ({
    sha: commit.id,
    message: commit.message,
    author: commit.author.name
  }))
  const fetched: FetchedChanges = {
    ...(random() < 0.85 ? { files } : {}),
    ...(random() < 0.3 ? { filesTotal: files.length + upTo(random, 2000) } : {}),
    ...(event === 'push' && random() < 0.5 ? { commits, commitsTotal: commits.length + upTo(random, 300) } : {}),
    ...(random() < 0.2 ? { unreadable: ["the pull request's files could not be read"] } : {})
  }
  return { facts, fetched }
}
