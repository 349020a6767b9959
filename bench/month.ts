// A month of a repository's merges, run three ways through the bundled action against the simulated admin API and
// GitHub: one job per merge (the action before its gates), the same with the README's gates, and the gates with
// `mode: batch` on the README's weekday schedule. Jobs are scaled down MONTH_SCALE times; runner time is reported
// unscaled: each run's own time, with its wait on the job scaled back up.
import { startServer } from '../sim/admin-api.ts'
import { type AgentApi, simulateAgentApi } from '../sim/agent-api.ts'
import { type FakeGitHub, type SimulatedFile, startFakeGitHub } from '../sim/github-api.ts'
import type { MergedPull, SimulatedHistory } from '../sim/github-history.ts'
import { runAction } from '../sim/run-action.ts'
import { buildFloor, median } from './process.ts'

export const MONTH_SCALE = 300
const KEY = 'mint_bench_month_key'
const DAY_MS = 86_400_000
const WEEKS = 4
const GATES = { 'paths-ignore': 'test/**\n**/*.test.ts' }
const TIMING = {
  'poll-interval': `${5000 / MONTH_SCALE}ms`,
  'max-poll-interval': `${30_000 / MONTH_SCALE}ms`,
  timeout: `${7_200_000 / MONTH_SCALE}ms`
}

/** A week's merges: a third touch only tests; dependency bumps, a release bot's pull request and a `no-docs` one among them. */
const WEEK: readonly { kind: string; user: string; files: string[]; labels?: string[] }[] = [
  { kind: 'feature', user: 'octocat', files: ['src/client.ts', 'test/client.test.ts'] },
  { kind: 'feature', user: 'mona', files: ['src/options.ts'] },
  { kind: 'feature', user: 'hubot', files: ['src/errors.ts', 'README.md'] },
  { kind: 'fix', user: 'mona', files: ['src/retry.ts', 'src/retry.test.ts'] },
  { kind: 'fix', user: 'octocat', files: ['src/pagination.ts'] },
  { kind: 'refactor', user: 'octocat', files: ['src/internal/pool.ts'], labels: ['no-docs'] },
  { kind: 'tests', user: 'mona', files: ['test/pool.test.ts'] },
  { kind: 'tests', user: 'hubot', files: ['test/retry.test.ts', 'test/fixtures/answers.ts'] },
  { kind: 'tests', user: 'octocat', files: ['test/e2e/login.test.ts'] },
  { kind: 'tests', user: 'mona', files: ['src/options.test.ts'] },
  { kind: 'tests', user: 'hubot', files: ['test/e2e/pages.test.ts'] },
  { kind: 'bump', user: 'dependabot[bot]', files: ['package.json', 'package-lock.json'] },
  { kind: 'bump', user: 'dependabot[bot]', files: ['package.json', 'package-lock.json'] },
  { kind: 'bump', user: 'renovate[bot]', files: ['package.json', 'package-lock.json'] },
  { kind: 'release', user: 'release-please[bot]', files: ['CHANGELOG.md', 'package.json'] }
]

interface Merge {
  readonly pull: MergedPull
  readonly at: number
  /** Whether the gates let it through (tests only, `no-docs` and dependency bumps they skip). */
  readonly passes: boolean
}

/** Mulberry32: the same month every time. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Four weeks of merges, each on a weekday between 09:00 and 18:00 UTC; the month ends five weeks before now. */
function monthOf(start: number): Merge[] {
  const random = seeded(2026)
  const merges: Merge[] = []
  for (let week = 0; week < WEEKS; week++) {
    for (const [index, shape] of WEEK.entries()) {
      const number = 100 + week * WEEK.length + index
      const at = start + (week * 7 + Math.floor(random() * 5)) * DAY_MS + (9 + random() * 9) * 3_600_000
      const files: SimulatedFile[] = shape.files.map((filename) => ({
        filename,
        status: 'modified',
        additions: 12,
        deletions: 3,
        patch: `@@ -1 +1,2 @@\n-old\n+new in ${filename}`
      }))
      const pull = {
        number,
        title: `${shape.kind} #${number}`,
        user: shape.user,
        labels: shape.labels ?? [],
        body: `A ${shape.kind}.`,
        mergedAt: new Date(at).toISOString(),
        mergeCommit: ((number * 2_654_435_761) % 2 ** 32).toString(16).padStart(8, '0').repeat(5),
        files
      }
      merges.push({ pull, at, passes: ['feature', 'fix', 'release'].includes(shape.kind) })
    }
  }
  return merges.sort((a, b) => a.at - b.at)
}

/** A job runs 4 minutes, and 2 more for each pull request its prompt describes. */
function jobRun(prompt: string) {
  const pulls = Math.max(1, prompt.split('\n### Pull request #').length - 1)
  return {
    activeForMs: ((4 + 2 * pulls) * 60_000) / MONTH_SCALE,
    final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/1' }
  }
}

export interface MonthRow {
  readonly strategy: string
  readonly runs: number
  readonly jobs: number
  readonly adminRequests: number
  readonly githubRequests: number
  /** Unscaled: each run's own time, its wait on its job scaled back up. */
  readonly runnerMs: number
  /** The pull requests each job's prompt described, by job: none twice, in a month that holds all of them. */
  readonly described: readonly number[]
  /** With `mode: batch`: the GitHub requests of each run. */
  readonly githubPerRun?: readonly number[]
}

interface World {
  readonly api: AgentApi
  readonly url: string
  readonly github: FakeGitHub
  readonly requests: () => number
  readonly close: () => Promise<void>
}

async function world(history: SimulatedHistory, merges: readonly Merge[]): Promise<World> {
  const api = simulateAgentApi({ projectId: 'bench', apiKey: KEY, runFor: jobRun })
  const server = await startServer(api.respond)
  const pullFiles = Object.fromEntries(merges.map(({ pull }) => [pull.number, pull.files]))
  const github = await startFakeGitHub({ owner: 'acme', repo: 'api', history, pullFiles })
  return {
    api,
    url: server.url,
    github,
    requests: () => server.requests.length,
    close: () => Promise.all([server.close(), github.close()]).then(() => undefined)
  }
}

/** Each run's time, with its job's wait scaled back up (jobs are waited for one run each). */
function rowOf(strategy: string, at: World, runsMs: readonly number[]): MonthRow {
  const jobs = [...at.api.jobs.values()]
  const waitedMs = jobs.reduce((sum, job) => sum + ((job.polledAt ?? job.since) - job.since), 0)
  const totalMs = runsMs.reduce((sum, ms) => sum + ms, 0)
  return {
    strategy,
    runs: runsMs.length,
    jobs: jobs.length,
    adminRequests: at.requests(),
    githubRequests: at.github.calls.length,
    runnerMs: totalMs - waitedMs + waitedMs * MONTH_SCALE,
    described: jobs.flatMap((job) =>
      [...(job.prompts[0] ?? '').matchAll(/\n### Pull request #(\d+) in/g)].map((match) => Number(match[1]))
    )
  }
}

function mergedEvent(pull: MergedPull) {
  return {
    action: 'closed',
    number: pull.number,
    pull_request: {
      number: pull.number,
      title: pull.title,
      html_url: `https://github.com/acme/api/pull/${pull.number}`,
      user: { login: pull.user, type: pull.user.endsWith('[bot]') ? 'Bot' : 'User' },
      body: pull.body,
      merged: true,
      merge_commit_sha: pull.mergeCommit,
      base: { ref: 'main', repo: { full_name: 'acme/api' } },
      head: { ref: `pr-${pull.number}`, repo: { full_name: 'acme/api' } },
      labels: (pull.labels ?? []).map((name) => ({ name })),
      changed_files: pull.files.length
    }
  }
}

/** The README's first recipe, once per merge (twelve runners at a time), with these gates. */
async function perMerge(strategy: string, merges: readonly Merge[], gates: Record<string, string>): Promise<MonthRow> {
  const at = await world({ branch: 'main', commits: [], merged: [] }, merges)
  try {
    const runsMs: number[] = []
    const queue = [...merges]
    const runner = async (): Promise<void> => {
      for (let merge = queue.shift(); merge; merge = queue.shift()) {
        const run = await runAction({
          inputs: {
            'project-id': 'bench',
            'api-key': KEY,
            'base-url': at.url,
            prompt: 'Update the docs for the change below, if it changes anything users see.',
            context: 'auto',
            comment: 'true',
            ...TIMING,
            ...gates
          },
          env: { GITHUB_API_URL: at.github.url, GITHUB_REPOSITORY: 'acme/api' },
          eventName: 'pull_request',
          event: mergedEvent(merge.pull)
        })
        if (run.exitCode !== 0) throw new Error(`a run of "${strategy}" failed:\n${run.stdout}`)
        runsMs.push(run.durationMs)
      }
    }
    await Promise.all(Array.from({ length: 12 }, runner))
    return rowOf(strategy, at, runsMs)
  } finally {
    await at.close()
  }
}

/** The README's batch recipe at 06:00 UTC on these days of the week (0 is Sunday) through the month and the Monday after. */
async function batchOn(
  strategy: string,
  weekdays: readonly number[],
  merges: readonly Merge[],
  start: number
): Promise<MonthRow> {
  const history: SimulatedHistory = { branch: 'main', commits: [], merged: [] }
  const at = await world(history, merges)
  try {
    const runsMs: number[] = []
    const githubPerRun: number[] = []
    const days = Array.from({ length: WEEKS * 7 + 1 }, (_, day) => start + day * DAY_MS + 6 * 3_600_000)
    for (const runAt of days.filter((day) => weekdays.includes(new Date(day).getUTCDay()))) {
      for (const { pull } of merges.filter((merge) => merge.at <= runAt).slice(history.merged.length)) {
        history.merged.push(pull)
        history.commits.push({ sha: pull.mergeCommit, message: pull.title, author: pull.user, date: pull.mergedAt })
      }
      const before = at.github.calls.length
      const run = await runAction({
        inputs: {
          'project-id': 'bench',
          'api-key': KEY,
          'base-url': at.url,
          mode: 'batch',
          prompt: 'Update the docs for everything merged below, where readers would notice it.',
          'batch-since': new Date(start).toISOString(),
          'batch-notify': 'true',
          ...TIMING,
          ...GATES
        },
        env: { GITHUB_API_URL: at.github.url, GITHUB_REPOSITORY: 'acme/api' },
        eventName: 'schedule',
        event: { schedule: `0 6 * * ${weekdays.join(',')}` }
      })
      if (run.exitCode !== 0) throw new Error(`a batch run failed:\n${run.stdout}`)
      runsMs.push(run.durationMs)
      githubPerRun.push(at.github.calls.length - before)
    }
    return { ...rowOf(strategy, at, runsMs), githubPerRun }
  } finally {
    await at.close()
  }
}

export interface MonthFigures {
  readonly merged: number
  /** The pull requests the gates let through. */
  readonly passing: number
  readonly rows: readonly MonthRow[]
  /** A run the gates skip (it reads the pull request's files), spawn to exit; median. */
  readonly skippedRunMs: number
  /** The toolkit floor (bench/floor.ts: inputs, one GET, one output), spawn to exit; median. */
  readonly floorMs: number
}

export async function measureMonth(): Promise<MonthFigures> {
  const monday = new Date()
  monday.setUTCHours(0, 0, 0, 0)
  const start = monday.getTime() - (((monday.getUTCDay() + 6) % 7) + 7 * (WEEKS + 1)) * DAY_MS
  const merges = monthOf(start)
  const rows = [
    await perMerge('one job per merge', merges, { 'skip-labels': '', 'skip-authors': '' }),
    await perMerge('with the gates', merges, GATES),
    await batchOn('gates + mode: batch, weekdays', [1, 2, 3, 4, 5], merges, start),
    await batchOn('gates + mode: batch, Mondays', [1], merges, start)
  ]
  const passing = merges.filter((merge) => merge.passes).length
  return { merged: merges.length, passing, rows, ...(await skippedRun(merges)) }
}

/** The time of a run the gates skip (a pull request that touches only tests), next to the floor's, alternated. */
async function skippedRun(merges: readonly Merge[]): Promise<{ skippedRunMs: number; floorMs: number }> {
  const tests = merges.filter(({ pull }) => pull.files.every((file) => file.filename.startsWith('test/')))
  const at = await world({ branch: 'main', commits: [], merged: [] }, merges)
  const floor = await buildFloor()
  try {
    const skipped: number[] = []
    const floors: number[] = []
    const env = { GITHUB_API_URL: at.github.url, GITHUB_REPOSITORY: 'acme/api' }
    for (const { pull } of tests.slice(0, 9)) {
      const run = await runAction({
        inputs: { 'project-id': 'bench', 'api-key': KEY, 'base-url': at.url, prompt: 'Docs', ...GATES },
        env,
        eventName: 'pull_request',
        event: mergedEvent(pull)
      })
      if (run.outputs['outcome'] !== 'skipped') throw new Error(`the run was not skipped:\n${run.stdout}`)
      skipped.push(run.durationMs)
      const least = await runAction({
        inputs: { 'project-id': 'bench', 'job-id': 'job', 'api-key': KEY, 'base-url': at.url },
        env,
        entry: floor.entry
      })
      floors.push(least.durationMs)
    }
    return { skippedRunMs: median(skipped), floorMs: median(floors) }
  } finally {
    await Promise.all([at.close(), floor.remove()])
  }
}
