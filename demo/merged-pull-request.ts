// The demo's merged pull request: the event the runner hands the action, and the files GitHub lists for it; then the
// docs pull request the agent opens for it, and the code and docs the grounding check reads its code names against.
import type { SimulatedFile, SimulatedPull } from '../sim/github-api.ts'
import { repositoryTarball } from '../sim/tarball.ts'

export const MERGED_PULL_REQUEST = {
  action: 'closed',
  number: 42,
  pull_request: {
    number: 42,
    title: 'Add a retries option to createClient',
    html_url: 'https://github.com/acme/api/pull/42',
    user: { login: 'octocat' },
    body: 'Adds `retries` to `createClient`: a failed request is sent again up to that many times.\n\n<!-- reviewer checklist: run the e2e suite -->\nThe default stays 0.',
    merged: true,
    merge_commit_sha: '4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39',
    base: { ref: 'main', repo: { full_name: 'acme/api' } },
    head: { ref: 'feature/retries', sha: '9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d', repo: { full_name: 'acme/api' } },
    labels: [{ name: 'enhancement' }],
    changed_files: 3,
    additions: 51,
    deletions: 4,
    commits: 2
  }
}

export const PULL_REQUEST_FILES: SimulatedFile[] = [
  {
    filename: 'src/client.ts',
    status: 'modified',
    additions: 6,
    deletions: 1,
    patch:
      "@@ -10,6 +10,11 @@ export interface ClientOptions {\n   baseUrl: string\n+  /** How many times a failed request is sent again (default 0). */\n+  retries?: number\n }\n \n export function createClient(options: ClientOptions): Client {\n-  return new Client(options.baseUrl)\n+  const retries = options.retries ?? 0\n+  if (!Number.isInteger(retries) || retries < 0) throw new RangeError('retries must be 0 or more')\n+  return new Client(options.baseUrl, retries)\n }"
  },
  {
    filename: 'src/retry.ts',
    status: 'added',
    additions: 9,
    deletions: 0,
    patch:
      '@@ -0,0 +1,9 @@\n+export async function withRetries<T>(retries: number, send: () => Promise<T>): Promise<T> {\n+  for (let attempt = 0; ; attempt += 1) {\n+    try {\n+      return await send()\n+    } catch (error) {\n+      if (attempt >= retries) throw error\n+    }\n+  }\n+}'
  },
  { filename: 'package-lock.json', status: 'modified', additions: 36, deletions: 3, patch: '@@ -1 +1 @@\n-x\n+y' }
]

const CODE_SHA = MERGED_PULL_REQUEST.pull_request.head.sha
const DOCS_BASE = '0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c'

/** The code at the pull request's head, as its tarball holds it. */
const CODE: Record<string, string> = {
  'src/client.ts':
    'export interface ClientOptions {\n  baseUrl: string\n  retries?: number\n}\n\nexport function createClient(options: ClientOptions): Client {\n  return new Client(options.baseUrl, options.retries ?? 0)\n}\n',
  'src/retry.ts': 'export async function withRetries<T>(retries: number, send: () => Promise<T>): Promise<T> {}\n'
}

/** The docs pull request the agent opens: its new page names `retries` and `createClient`, and one method no code has. */
export const DOCS_PULL: SimulatedPull = {
  number: 128,
  title: 'Document the retries option',
  user: 'mintlify[bot]',
  state: 'open',
  labels: [],
  baseSha: DOCS_BASE,
  headSha: '5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f',
  files: [
    {
      filename: 'api/retries.mdx',
      status: 'added',
      additions: 9,
      deletions: 0,
      patch:
        '@@ -0,0 +1,9 @@\n+---\n+title: Retries\n+---\n+\n+Pass `retries` to `createClient` to send a failed request again:\n+\n+```ts\n+const client = createClient({ baseUrl, retries: 3 })\n+client.resetRetries()\n+```'
    }
  ]
}

/** What the grounding check downloads: the code at the pull request's head, and the docs at the docs pull request's base. */
export const TARBALLS: Record<string, Buffer> = {
  [`acme/api@${CODE_SHA}`]: repositoryTarball(`acme-api-${CODE_SHA.slice(0, 7)}`, CODE),
  [`acme/docs@${DOCS_BASE}`]: repositoryTarball(`acme-docs-${DOCS_BASE.slice(0, 7)}`, {
    'index.mdx': '# Acme\n\nInstall it with `npm install acme`.\n'
  })
}
