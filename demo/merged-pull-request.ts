// The demo's merged pull request: the event the runner hands the action, and the files GitHub lists for it.
import type { SimulatedFile } from '../sim/github-api.ts'

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
    head: { ref: 'feature/retries', repo: { full_name: 'acme/api' } },
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
