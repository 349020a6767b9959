// Event payloads shaped as GitHub sends them, cut down to the fields the action reads and a few it does not.
import type { ChangedFile } from '../../../src/github/change.ts'

export const SHA_BEFORE = '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d'
export const SHA_AFTER = '5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f80'
export const NO_COMMIT = '0000000000000000000000000000000000000000'

export function mergedPullRequest(): Record<string, unknown> {
  return {
    action: 'closed',
    number: 128,
    pull_request: {
      number: 128,
      title: 'Add a retry option to the client',
      html_url: 'https://github.com/acme/widgets/pull/128',
      state: 'closed',
      merged: true,
      merge_commit_sha: '4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39',
      user: { login: 'octocat', type: 'User' },
      base: { ref: 'main', repo: { full_name: 'acme/widgets' } },
      head: { ref: 'feature/retry', repo: { full_name: 'acme/widgets' } },
      labels: [{ name: 'enhancement', color: 'a2eeef' }, { name: 'needs docs' }],
      body: 'Adds `retries` to `createClient`.\r\n\r\n<!-- Reviewer checklist: run the e2e suite -->\r\nThe default stays 0, so nothing changes unless you opt in.\r\n\r\nCloses #120',
      changed_files: 4,
      additions: 63,
      deletions: 6,
      commits: 3
    },
    repository: { full_name: 'acme/widgets' },
    sender: { login: 'hubot' }
  }
}

export function pushToMain(): Record<string, unknown> {
  return {
    ref: 'refs/heads/main',
    before: SHA_BEFORE,
    after: SHA_AFTER,
    created: false,
    deleted: false,
    forced: false,
    compare: `https://github.com/acme/widgets/compare/${SHA_BEFORE.slice(0, 12)}...${SHA_AFTER.slice(0, 12)}`,
    commits: [
      {
        id: 'aaaaaaa1111111111111111111111111111111111',
        message: 'Add retries\n\nLonger text.',
        author: { name: 'Mona Lisa', email: 'mona@example.com', username: 'mona' }
      },
      {
        id: 'bbbbbbb2222222222222222222222222222222222',
        message: 'Document retries',
        author: { name: 'Hubot', email: 'hubot@example.com' }
      }
    ],
    head_commit: {
      id: 'bbbbbbb2222222222222222222222222222222222',
      message: 'Document retries',
      author: { name: 'Hubot', email: 'hubot@example.com' }
    },
    pusher: { name: 'mona', email: 'mona@example.com' },
    sender: { login: 'mona' },
    repository: { full_name: 'acme/widgets' }
  }
}

export function publishedRelease(): Record<string, unknown> {
  return {
    action: 'published',
    release: {
      tag_name: 'v2.4.0',
      name: 'Retries',
      html_url: 'https://github.com/acme/widgets/releases/tag/v2.4.0',
      author: { login: 'octocat' },
      body: '## What is new\n\n- `retries` option',
      draft: false,
      prerelease: true
    },
    repository: { full_name: 'acme/widgets' }
  }
}

export function commentOnPullRequest(): Record<string, unknown> {
  return {
    action: 'created',
    issue: {
      number: 77,
      title: 'Retry on 502',
      html_url: 'https://github.com/acme/widgets/pull/77',
      user: { login: 'octocat' },
      body: 'Retries 502s.',
      pull_request: { url: 'https://api.github.com/repos/acme/widgets/pulls/77' }
    },
    comment: {
      html_url: 'https://github.com/acme/widgets/pull/77#issuecomment-1',
      user: { login: 'mona' },
      body: '/docs document the new option'
    },
    repository: { full_name: 'acme/widgets' }
  }
}

/** The files of mergedPullRequest, as the pull request files API lists them. */
export function mergedPullRequestFiles(): ChangedFile[] {
  return [
    {
      path: 'src/client.ts',
      status: 'modified',
      additions: 14,
      deletions: 3,
      patch: [
        '@@ -10,9 +10,20 @@ export interface ClientOptions {',
        '   baseUrl: string',
        '   token?: string',
        '+  /** How many times a failed request is sent again (default 0). */',
        '+  retries?: number',
        ' }',
        ' ',
        ' export function createClient(options: ClientOptions): Client {',
        '-  return new Client(options.baseUrl, options.token)',
        '+  const retries = options.retries ?? 0',
        '+  if (!Number.isInteger(retries) || retries < 0) {',
        "+    throw new RangeError('retries must be a whole number, 0 or more')",
        '+  }',
        '+  return new Client(options.baseUrl, options.token, retries)',
        ' }'
      ].join('\n')
    },
    {
      path: 'src/retry.ts',
      status: 'added',
      additions: 10,
      deletions: 0,
      patch: [
        '@@ -0,0 +1,10 @@',
        '+/** Sends the request, and again after a failure, up to `retries` more times. */',
        '+export async function withRetries<T>(retries: number, send: () => Promise<T>): Promise<T> {',
        '+  for (let attempt = 0; ; attempt += 1) {',
        '+    try {',
        '+      return await send()',
        '+    } catch (error) {',
        '+      if (attempt >= retries) throw error',
        '+    }',
        '+  }',
        '+}'
      ].join('\n')
    },
    {
      path: 'README.md',
      status: 'modified',
      additions: 5,
      deletions: 0,
      patch: [
        '@@ -42,6 +42,11 @@ const client = createClient({ baseUrl })',
        ' ## Options',
        ' ',
        " - `baseUrl`: the API's address.",
        '+- `retries`: how many times a failed request is sent again. Default 0.',
        '+',
        '+  ```ts',
        '+  createClient({ baseUrl, retries: 3 })',
        '+  ```'
      ].join('\n')
    },
    {
      path: 'package-lock.json',
      status: 'modified',
      additions: 34,
      deletions: 3,
      patch: '@@ -1,5 +1,5 @@\n {\n   "name": "widgets",\n-  "version": "2.3.0",\n+  "version": "2.4.0",'
    }
  ]
}

/** A changed file as the gates and the guardrail read it; renamed from `previousPath` when given. */
export const changedFile = (path: string, previousPath?: string): ChangedFile => ({
  path,
  previousPath,
  status: previousPath ? 'renamed' : 'modified',
  additions: 1,
  deletions: 1
})
