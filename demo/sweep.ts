// `npm run demo -- sweep`: a weekly `mode: sweep` of acme/docs, against the simulated admin API and GitHub: six open
// agent pull requests (one orphaned, one superseded, one waiting, one approved, one stale, one a person worked on) first reported,
// then swept with every action allowed. Each run is the bundled action, run as the runner runs it.
import { agentDocsPulls, agentRecords, startFakeGitHub, type SimulatedPull } from '../sim/github-api.ts'
import { type ActionRun, runAction } from '../sim/run-action.ts'
import { renderRunnerLog, renderSummaryText } from '../sim/runner-log.ts'
import { DEMO_KEY, serveJobsCompletingWith } from './scenario.ts'

const DAY = 86_400_000
const ago = (days: number): string => new Date(Date.now() - days * DAY).toISOString()
const VIEWER = 'github-actions[bot]'

/** An open docs pull request of the agent's, opened `days` ago, for the change of acme/api#`number + 40`. */
const docsPull = (number: number, days: number, more: Partial<SimulatedPull> = {}): SimulatedPull =>
  agentDocsPulls(Date.now())(number, days, { title: `Document the change of acme/api#${number + 40}`, ...more })

/** The action's tracking comments in acme/api: each a job that opened a pull request of acme/docs. */
const record = agentRecords(Date.now(), 'demo-project')
const HEAD = { head: 'e'.repeat(40) }

export async function showSweepDemo(entry: string | undefined, line: (title: string) => void): Promise<number> {
  console.log(
    'mode: sweep, on a Monday schedule, in acme/api: acme/docs has six open agent pull requests. The first run only\nreports (sweep-actions empty); the second may close, merge and follow up.\n'
  )
  const { server } = await serveJobsCompletingWith('https://github.com/acme/docs/pull/1')
  const github = await startFakeGitHub({
    owner: 'acme',
    repo: 'api',
    viewer: VIEWER,
    pulls: {
      'acme/api': [
        { number: 41, state: 'closed', merged: false, labels: [] },
        { number: 42, state: 'open', labels: [] }
      ],
      'acme/docs': [
        docsPull(1, 20),
        docsPull(2, 19),
        docsPull(3, 18),
        docsPull(4, 17, { reviews: [{ user: 'mona', state: 'APPROVED' }], checks: { runs: ['completed/success'] } }),
        docsPull(6, 25, { updatedAt: ago(20) }),
        docsPull(7, 24, {
          updatedAt: ago(20),
          commits: [{ sha: 'd'.repeat(40), author: 'mona', email: 'mona@example.com' }]
        })
      ]
    },
    existing: [
      record(41, 1, HEAD),
      record(42, 2, HEAD),
      record(42, 3, { ...HEAD, startedDays: 20 }),
      record(43, 4, { ...HEAD, source: 'merged' }),
      record(51, 6, HEAD),
      record(52, 7, HEAD)
    ]
  })
  const step = (actions: string): Promise<ActionRun> =>
    runAction({
      ...(entry ? { entry } : {}),
      eventName: 'schedule',
      event: { schedule: '0 7 * * 1' },
      env: { GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'acme/api' },
      inputs: {
        'project-id': 'demo-project',
        'api-key': DEMO_KEY,
        mode: 'sweep',
        'docs-repository': 'acme/docs',
        'docs-token': 'ghs_demo_docs_token',
        'sweep-actions': actions,
        'base-url': server.url
      }
    })
  try {
    const report = await step('')
    line("The report-only run: the step's log")
    console.log(renderRunnerLog(report.stdout, { debug: false }))
    line('Job summary')
    console.log(renderSummaryText(report.summary))
    const acted = await step('close-orphaned, close-superseded, close-stale, merge-approved, update-conflicted')
    line("The run that acts: the step's log")
    console.log(renderRunnerLog(acted.stdout, { debug: false }))
    line('The sweep output')
    console.log(acted.outputs['sweep'] ?? '')
    line('Result')
    const open = github.pulls
      .get('acme/docs')
      ?.filter((pull) => pull.state === 'open')
      .map((pull) => `#${pull.number}`)
    console.log(`Open agent pull requests left in acme/docs: ${open?.join(', ') ?? 'none'}.`)
    return report.exitCode === 0 && acted.exitCode === 0 ? 0 : 1
  } finally {
    await Promise.all([server.close(), github.close()])
  }
}
