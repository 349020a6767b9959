// The code repository acme/api, whose docs live in acme/docs, for the end-to-end tests of what a mode guards against:
// a step that runs in acme/api (on a GITHUB_SHA no pull request has), an admin API whose job completes with a docs
// pull request, and the events and records such tests build. Each file passes its own key and token.
import type { FakeGitHubOptions } from '../../../sim/github-api.ts'
import { markerOf, promptHash, type TrackingState } from '../../../src/github/tracking-record.ts'
import type { Loopback } from './loopback.ts'
import { bundleRunner } from './run-bundle.ts'

const PROJECT = 'docs'
const DOCS_PR = 'https://github.com/acme/docs/pull/128'
export const HEAD = 'a'.repeat(40)
/** docs-token: the app that opens the docs pull requests. */
export const DOCS_TOKEN = 'ghs_attack2_docs_app_token_0123'

/** Several runs, and GitHub's writes spaced a second apart: a test takes tens of seconds, more on a busy machine. */
export const RUNS_MS = 180_000

/** The token is a GitHub App's installation token: GraphQL names it `acme-docs`, REST its comments' author `acme-docs[bot]`. */
export const APP = { viewer: 'acme-docs', writesAs: 'acme-docs[bot]' }

/** The run function of the step in acme/api, and the servers it runs against. */
export function codeRepository(servers: Loopback, secrets: { key: string; token: string }) {
  const run = bundleRunner({
    githubToken: secrets.token,
    env: { GITHUB_REPOSITORY: 'acme/api', GITHUB_SHA: 'e'.repeat(40) },
    inputs: { 'project-id': PROJECT, 'api-key': secrets.key, 'poll-interval': '100ms', 'max-poll-interval': '300ms' }
  })
  async function world(github: FakeGitHubOptions = {}, activePolls = 1) {
    const fake = await servers.github({ owner: 'acme', repo: 'api', ...github })
    const agent = await servers.agentApi({
      projectId: PROJECT,
      apiKey: secrets.key,
      run: { activePolls, final: { status: 'completed', prLink: DOCS_PR } }
    })
    return { github: fake, api: agent.api, server: agent.server }
  }
  return { run, world }
}

/** An event of pull request `number` in acme/api, opened by `user` three days ago. */
export function pullEvent(action: string, user = 'octocat', number = 7) {
  return {
    action,
    number,
    pull_request: {
      number,
      title: 'Update the docs',
      html_url: `https://github.com/acme/api/pull/${number}`,
      user: { login: user, type: user.endsWith('[bot]') ? 'Bot' : 'User' },
      body: 'An update.',
      head: { ref: 'docs/update', sha: HEAD },
      base: { ref: 'main' },
      draft: false,
      merged: false,
      state: 'open',
      created_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      labels: []
    }
  }
}

/** A start recorded in a tracking comment's marker, `minutesAgo` minutes ago. */
export function start(run: string, minutesAgo: number) {
  const line = 'an earlier prompt'
  const at = Date.now() - minutesAgo * 60_000
  return { kind: 'start' as const, run, attempt: 1, prompt: promptHash(line), line, project: PROJECT, at }
}

/** A comment on issue `issue` that carries this record, written by `user` just now. */
export function recordBy(user: string, issue: number, state: TrackingState) {
  return { issue, user, body: `${markerOf(state)}\nA report.`, updatedAt: new Date().toISOString() }
}
