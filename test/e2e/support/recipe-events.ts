// The events a recipe of the README and docs/ runs on, as GitHub sends them, and the repository they happen in
// (acme/api: pull request #7, issue #8, two merged pull requests on main), for the recipes' end-to-end test.
import type { FakeGitHubOptions, SimulatedFile } from '../../../sim/github-api.ts'
import { historyOf } from './batch-history.ts'

export const PULL = 7
export const ISSUE = 8
/** The person who asks: a writer of acme/api. */
export const WRITER = 'maintainer'
export const DOCS_PR = 'https://github.com/acme/docs/pull/128'
const [A, B] = ['a', 'b'].map((char) => char.repeat(40)) as [string, string]

const file = (filename: string): SimulatedFile => ({
  filename,
  status: 'modified',
  additions: 3,
  deletions: 1,
  patch: `@@ -1 +1 @@\n-old ${filename}\n+new ${filename}`
})

/** acme/api as GitHub shows it: the pull request's files, a push's compare, main's merges, the docs pull request. */
export function repository(): FakeGitHubOptions {
  return {
    owner: 'acme',
    repo: 'api',
    roles: { [WRITER]: 'write' },
    pullFiles: { [PULL]: [file('src/client.ts')] },
    pulls: {
      'acme/docs': [{ number: 128, state: 'open', labels: [], files: [file('docs/retries.mdx')] }],
      // The docs repository the sweep recipes name: no agent pull request open there yet.
      'your-org/docs': []
    },
    compares: {
      [`${A}...${B}`]: {
        status: 'ahead',
        commits: [{ sha: B, message: 'Retry on 503 too', author: 'octocat' }],
        files: [file('src/retry.ts')]
      }
    },
    issues: [{ number: ISSUE, title: 'Explain rate limits', labels: [], state: 'open' }],
    history: historyOf([11, 12])
  }
}

function pullRequest(action: string, head = A, merged = false) {
  const repo = { full_name: 'acme/api' }
  return {
    action,
    number: PULL,
    pull_request: {
      number: PULL,
      title: 'Add a retry option to the client',
      html_url: `https://github.com/acme/api/pull/${PULL}`,
      user: { login: 'octocat', type: 'User' },
      body: 'Retries requests that fail with a 502.',
      head: { ref: 'feature/retry', sha: head, repo },
      base: { ref: 'main', repo },
      draft: false,
      merged,
      merge_commit_sha: merged ? 'c'.repeat(40) : null,
      state: action === 'closed' ? 'closed' : 'open',
      labels: []
    }
  }
}

const issue = { number: ISSUE, title: 'Explain rate limits', body: 'The docs never say what a 429 means.' }
const sender = { login: WRITER, type: 'User' }
const comment = (id: number, body: string) => ({ id, body, user: sender })

export interface RecipeEvent {
  readonly eventName: string
  readonly event: unknown
}

/** An event of this name and activity, in acme/api; `asks` is what a comment says, or the label added. */
export function eventOf(eventName: string, action: string, asks = ''): RecipeEvent {
  switch (eventName) {
    case 'pull_request':
      if (action === 'labeled') return { eventName, event: { ...pullRequest(action), label: { name: asks }, sender } }
      return { eventName, event: pullRequest(action, action === 'synchronize' ? B : A, action === 'closed') }
    case 'issue_comment': {
      const onPull = { ...issue, number: PULL, pull_request: { url: 'x' }, user: { login: 'octocat' } }
      return { eventName, event: { action, issue: onPull, comment: comment(9001, asks), sender } }
    }
    case 'pull_request_review_comment':
      return { eventName, event: { ...pullRequest(action), comment: comment(777, asks), sender } }
    case 'issues':
      return { eventName, event: { action, issue, label: { name: asks }, sender } }
    case 'push':
      return { eventName, event: { ref: 'refs/heads/main', before: A, after: B, commits: [], size: 1 } }
    case 'schedule':
      return { eventName, event: { schedule: '0 6 * * 1-5' } }
    case 'workflow_dispatch':
      return { eventName, event: { inputs: { prompt: asks } } }
    default:
      throw new Error(`no event "${eventName}" in the recipes' test: add one to test/e2e/support/recipe-events.ts`)
  }
}
