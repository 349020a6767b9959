// `npm run bench`: every figure next to its baseline measured in the same run, and a verdict per target.
// Exits non-zero when a target does not hold.
import { formatDuration } from '../src/text/duration.ts'
import { allowedLagMs, measurePolling } from './polling.ts'
import { measureModuleLoads, measureProcess } from './process.ts'
import { measureRunRequests } from './github.ts'
import { MONTH_SCALE, measureMonth } from './month.ts'
import { measureScaled, SCALE } from './scaled.ts'
import { measureSoak } from './soak.ts'
import { measureSweeps } from './sweep.ts'
import { injectedFound, measureGrounding, ungroundedPer100 } from './grounding.ts'

const verdicts: { target: string; holds: boolean; detail: string }[] = []
function judge(target: string, holds: boolean, detail: string): void {
  verdicts.push({ target, holds, detail })
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: string[]): string => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`
  return [line(head), `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`, ...rows.map(line)].join('\n')
}

const percent = (ratio: number): string => `${Math.round(ratio * 100)}%`
const ms = (value: number): string => (value < 1000 ? `${value.toFixed(value < 10 ? 1 : 0)}ms` : formatDuration(value))
const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`
const seconds = (value: number): string => `${(value / 1000).toFixed(2)} s`
const started = performance.now()

/** `npm run bench -- grounding` runs the grounding section alone. */
const only = process.argv[2]
if (only !== undefined && only !== 'grounding')
  throw new Error(`npm run bench takes no argument but "grounding", not "${only}"`)

function finish(): void {
  console.log('\n## Verdicts\n')
  for (const verdict of verdicts)
    console.log(`${verdict.holds ? 'HOLDS' : 'MISSED'}  ${verdict.target}: ${verdict.detail}`)
  const missed = verdicts.filter((verdict) => !verdict.holds).length
  console.log(
    `\n${verdicts.length - missed} of ${verdicts.length} targets hold (benchmark took ${formatDuration(performance.now() - started)})`
  )
  process.exitCode = missed > 0 ? 1 : 0
}

async function groundingSection(): Promise<void> {
  console.log('\n## 8. Docs true to the code (the grounding check)\n')
  console.log('Quality: published npm packages (pinned, fetched once with `npm pack` into node_modules/.cache), their')
  console.log(
    'README as the docs and their files as the code. Every other section with code is taken out of the README'
  )
  console.log('to make the docs before the change and put back as the change (clean); then five names that exist')
  console.log('nowhere (a real name of the code changed by a letter or a word) are put into the sections put back.\n')
  const grounding = await measureGrounding()
  console.log(
    table(
      ['package', 'names', 'ungrounded', 'per 100', 'injected', 'found', 'ungrounded on the clean change'],
      grounding.packages.map((row) => [
        row.spec,
        String(row.names),
        String(row.ungrounded.length),
        ((100 * row.ungrounded.length) / Math.max(1, row.names)).toFixed(1),
        String(row.injected.length),
        String(row.injected.length - row.missed.length),
        row.ungrounded.map((name) => `\`${name}\``).join(', ')
      ])
    )
  )
  const per100 = ungroundedPer100(grounding.packages)
  const found = injectedFound(grounding.packages)
  const names = grounding.packages.reduce((sum, row) => sum + row.names, 0)
  const injected = grounding.packages.reduce((sum, row) => sum + row.injected.length, 0)
  console.log(
    `\nIn all: ${names} names, ${per100.toFixed(1)} ungrounded per 100; ${injected} names put in, ${percent(found)} found.`
  )
  const { speed } = grounding
  const ratio = speed.checkMs / speed.grepMs
  console.log(
    `\nSpeed: a generated code base of ${speed.files} files (${megabytes(speed.bytes)}), a docs change of ${speed.names} words ` +
      'to look up (medians of 5, same run):\n'
  )
  console.log(
    table(
      ['measure', 'time', 'against grep'],
      [
        ['grep -rFwf names (the words, over the same files)', seconds(speed.grepMs), '1.00x'],
        ['the check from a git work tree (list, read, index, look up)', seconds(speed.checkMs), `${ratio.toFixed(2)}x`],
        [
          `the check from the tree's tarball (${megabytes(speed.tarballBytes)} read, as from GitHub)`,
          seconds(speed.tarballMs),
          `${(speed.tarballMs / speed.grepMs).toFixed(2)}x`
        ]
      ]
    )
  )
  judge('grounding: ungrounded names on clean changes <= 3 per 100', per100 <= 3, `${per100.toFixed(1)} per 100 names`)
  judge('grounding: names put in that exist nowhere found >= 90%', found >= 0.9, percent(found))
  judge('grounding: the check on 10,000 files within 3x grep -rFwf', ratio <= 3, `${ratio.toFixed(2)}x`)
}

if (only === 'grounding') {
  await groundingSection()
  finish()
  process.exit()
}

console.log('## 1. Polling efficiency (simulated clock, default inputs: poll-interval 5s, max-poll-interval 30s)\n')
console.log("200 runs per row; each run's job lasts within ±5% of the row's length, the same for every poller.")
console.log("Ours: the action's own poller and schedule, with real jitter. Baselines: a fixed 10 s poller (the peers'")
console.log('common default) and a fixed 1 min poller. Requests are means; lag is worst (mean).\n')
const polling = await measurePolling()
console.log(
  table(
    [
      'job length',
      'requests: ours',
      '10s poller',
      '1m poller',
      'ours / 10s',
      'lag: ours',
      '10s poller',
      '1m poller',
      'lag allowed'
    ],
    polling.map((row) => {
      const lag = (summary: { worstLagMs: number; meanLagMs: number }): string =>
        `${ms(summary.worstLagMs)} (${ms(summary.meanLagMs)})`
      return [
        formatDuration(row.durationMs),
        row.ours.meanRequests.toFixed(1),
        row.fixed10s.meanRequests.toFixed(1),
        row.fixed1m.meanRequests.toFixed(1),
        percent(row.ours.meanRequests / row.fixed10s.meanRequests),
        lag(row.ours),
        lag(row.fixed10s),
        lag(row.fixed1m),
        ms(allowedLagMs(row.durationMs))
      ]
    })
  )
)
for (const row of polling) {
  judge(
    `lag for jobs of about ${formatDuration(row.durationMs)} <= max(poll-interval, 20% of the job), <= max-poll-interval`,
    row.ours.worstLagShare <= 1,
    `worst ${ms(row.ours.worstLagMs)}, ${percent(row.ours.worstLagShare)} of what its job allows`
  )
}
for (const row of polling.filter((candidate) => candidate.durationMs >= 600_000)) {
  const limit = row.durationMs >= 1_800_000 ? 0.45 : 0.6
  const ratio = row.ours.meanRequests / row.fixed10s.meanRequests
  judge(
    `requests for a ${formatDuration(row.durationMs)} job <= ${percent(limit)} of the 10s poller's`,
    ratio <= limit,
    percent(ratio)
  )
}

console.log('\n## 2-3. Start-up, size and memory (same Node, same run, medians)\n')
console.log('The floor: the least an action on @actions/core and undici can cost (bench/floor.ts, bundled with ncc and')
console.log(
  'minified: core reads the inputs, undici makes one GET, core sets one output). Bare: `node -e` making one fetch.\n'
)
const processFigures = await measureProcess(15)
const { bare, floor, action } = processFigures
const startupRatio = action.startupMs / floor.startupMs
const rssRatio = action.peakRssKb / bare.peakRssKb
console.log(
  table(
    ['measure', 'action', 'toolkit floor', 'bare node', 'action / baseline'],
    [
      [
        `spawn to first request (median of ${processFigures.runs})`,
        ms(action.startupMs),
        ms(floor.startupMs),
        ms(bare.startupMs),
        `${startupRatio.toFixed(2)}x the floor`
      ],
      [
        'peak RSS of a full run',
        megabytes(action.peakRssKb * 1024),
        megabytes(floor.peakRssKb * 1024),
        megabytes(bare.peakRssKb * 1024),
        `${rssRatio.toFixed(2)}x bare node`
      ],
      [
        "entry bundle (dist/index.js; the floor's index.js)",
        megabytes(processFigures.entryBytes),
        megabytes(floor.bundleBytes),
        '',
        ''
      ],
      ['JavaScript loaded by a run without a comment', megabytes(action.loadedBytes), '', '', ''],
      [
        'JavaScript in dist/ (incl. the lazily loaded comment chunks)',
        megabytes(processFigures.distJsBytes),
        '',
        '',
        ''
      ]
    ]
  )
)
const loads = measureModuleLoads()
console.log(
  '\nWhere start-up goes (a fresh process that has loaded node:http and node:https, then loads one more module):\n'
)
console.log(
  table(
    ['module', 'time to load (median)'],
    [
      ['node:http2', ms(loads.http2Ms)],
      ['undici (loads node:http2 among the rest)', ms(loads.undiciMs)],
      ['@actions/core (loads undici through its OIDC client)', ms(loads.coreMs)]
    ]
  )
)
judge('start-up <= 1.25x the toolkit floor', startupRatio <= 1.25, `${startupRatio.toFixed(2)}x`)
judge('entry bundle <= 1.5 MB', processFigures.entryBytes <= 1.5 * 1024 * 1024, megabytes(processFigures.entryBytes))
judge('peak RSS <= 1.5x bare Node making one fetch', rssRatio <= 1.5, `${rssRatio.toFixed(2)}x`)

console.log("\n## Memory over thousands of polls (the action's client and poller in-process, after full GCs)\n")
const soak = await measureSoak()
const heapGrowth = soak.heapLateBytes / soak.heapEarlyBytes
console.log(
  table(
    ['measure', 'after 500 polls', `after ${soak.polls} polls`, 'ratio'],
    [
      ['heap used', megabytes(soak.heapEarlyBytes), megabytes(soak.heapLateBytes), `${heapGrowth.toFixed(2)}x`],
      [
        'RSS',
        megabytes(soak.rssEarlyBytes),
        megabytes(soak.rssLateBytes),
        `${(soak.rssLateBytes / soak.rssEarlyBytes).toFixed(2)}x`
      ]
    ]
  )
)
judge('heap flat over thousands of polls (<= 1.10x)', heapGrowth <= 1.1, `${heapGrowth.toFixed(2)}x`)

console.log(
  `\n## 4. Real time, scaled ${SCALE}x down (bundled action, loopback job; intervals and job length divided by ${SCALE})\n`
)
const scaled = await measureScaled()
console.log(
  table(
    ['stands for a job of', 'requests: real', 'simulated (mean)', 'lag: real', 'simulated (worst)'],
    scaled.map((row) => [
      formatDuration(row.durationMs),
      String(row.real.requests),
      row.simulated.meanRequests.toFixed(1),
      ms(row.real.lagMs),
      ms(row.simulated.worstLagMs)
    ])
  )
)
for (const row of scaled) {
  const requestsClose =
    Math.abs(row.real.requests - row.simulated.meanRequests) <= Math.max(2, 0.15 * row.simulated.meanRequests)
  // Real requests take a few milliseconds each, which the simulation does not count.
  const lagClose = row.real.lagMs <= row.simulated.worstLagMs + 50
  judge(
    `real run matches the simulation for a ${formatDuration(row.durationMs)} job`,
    requestsClose && lagClose,
    `${row.real.requests} vs ${row.simulated.meanRequests.toFixed(1)} requests, lag ${ms(row.real.lagMs)} vs ${ms(row.simulated.worstLagMs)}`
  )
}

console.log(`\n## 5. Requests of a whole run (the demo's story: context, preview and comment; scaled ${SCALE}x down)\n`)
console.log('Baseline: the same run with its tracking comment rewritten after every poll (as a comment that shows')
console.log('the time waited must be). Admin API writes: the job started and the preview triggered.\n')
const requests = await measureRunRequests()
console.log(
  table(
    [
      'stands for a job of',
      'admin API: job polls',
      'preview polls',
      'writes',
      'GitHub: reads',
      'writes',
      'rewritten every poll',
      'ours / that'
    ],
    requests.map((row) => {
      const github = row.github.reads + row.github.writes
      return [
        formatDuration(row.durationMs),
        String(row.admin.jobPolls),
        String(row.admin.previewPolls),
        String(row.admin.writes),
        String(row.github.reads),
        String(row.github.writes),
        String(row.rewriteEveryPoll),
        percent(github / row.rewriteEveryPoll)
      ]
    })
  )
)
const githubRequests = (row: (typeof requests)[number]): number => row.github.reads + row.github.writes
for (const row of requests.filter((candidate) => candidate.durationMs >= 600_000)) {
  const ratio = githubRequests(row) / row.rewriteEveryPoll
  judge(
    `GitHub requests for a ${formatDuration(row.durationMs)} job <= 25% of a comment rewritten every poll`,
    ratio <= 0.25,
    `${githubRequests(row)} vs ${row.rewriteEveryPoll}: ${percent(ratio)}`
  )
}
const [shortest, longest] = [requests[0], requests.at(-1)]
if (shortest && longest) {
  judge(
    `GitHub requests do not grow with the job's length (${formatDuration(longest.durationMs)} vs ${formatDuration(shortest.durationMs)})`,
    githubRequests(longest) <= githubRequests(shortest),
    `${githubRequests(longest)} vs ${githubRequests(shortest)}`
  )
}

console.log(`\n## 6. A month of merges, three ways (bundled action, jobs scaled ${MONTH_SCALE}x down)\n`)
console.log(
  'Four weeks of a repository: 15 merged pull requests a week (a third touch only tests; a no-docs label, three'
)
console.log('dependency bumps and a release bot among them). One job per merge is the first recipe with no gates; the')
console.log(
  "gates are the README's (paths-ignore: test/**, **/*.test.ts, and the default skip-labels and skip-authors);"
)
console.log(
  "batch is the README's recipe on its schedule, through the month and the Monday after. A job runs 4 minutes,"
)
console.log(
  'and 2 more per pull request its prompt describes. Runner time: every run, its wait on the job scaled back up.\n'
)
const month = await measureMonth()
const [perMerge, gated, weekdays] = month.rows
const hours = (value: number): string => `${(value / 3_600_000).toFixed(1)} h`
console.log(
  table(
    ['strategy', 'runs', 'agent jobs', 'per 20 merged', 'runner time', 'admin API requests', 'GitHub requests'],
    month.rows.map((row) => [
      row.strategy,
      String(row.runs),
      String(row.jobs),
      ((row.jobs / month.merged) * 20).toFixed(1),
      hours(row.runnerMs),
      String(row.adminRequests),
      String(row.githubRequests)
    ])
  )
)
const perRun = weekdays?.githubPerRun ?? []
console.log(
  `\n${month.merged} merged, ${month.passing} of them through the gates. GitHub requests of a batch run: ` +
    `${(perRun.reduce((sum, count) => sum + count, 0) / Math.max(1, perRun.length)).toFixed(1)} on average, ` +
    `${Math.max(0, ...perRun)} at most. A run the gates skip takes ${ms(month.skippedRunMs)} from spawn to exit; ` +
    `the toolkit floor ${ms(month.floorMs)}.`
)
if (perMerge && gated && weekdays) {
  judge(
    'one job per merge spends one job per merged pull request',
    perMerge.jobs === month.merged,
    `${perMerge.jobs} of ${month.merged}`
  )
  const gatedRatio = gated.jobs / perMerge.jobs
  judge(
    'the gates spend <= 50% of the jobs of one job per merge',
    gatedRatio <= 0.5,
    `${gated.jobs} jobs: ${percent(gatedRatio)}`
  )
  judge(
    'a weekday batch spends fewer jobs than one per merge with the gates',
    weekdays.jobs < gated.jobs,
    `${weekdays.jobs} vs ${gated.jobs}: ${percent(weekdays.jobs / gated.jobs)}`
  )
  for (const row of month.rows.slice(1)) {
    const described = [...row.described].sort((a, b) => a - b)
    judge(
      `${row.strategy}: each pull request the gates pass described to exactly one job`,
      described.length === month.passing && new Set(described).size === described.length,
      `${described.length} described, ${new Set(described).size} of them distinct, of ${month.passing}`
    )
  }
}
const skippedRatio = month.skippedRunMs / month.floorMs
judge(
  'a run the gates skip <= 1.6x the toolkit floor, spawn to exit',
  skippedRatio <= 1.6,
  `${skippedRatio.toFixed(2)}x`
)

console.log('\n## 7. Agent pull requests over a quarter, with and without a weekly sweep (simulated clock)\n')
console.log(
  'Thirteen weeks: two code pull requests each weekday with their docs pull requests (mode: pair, whose run on'
)
console.log(
  'a close misses one event in ten; a new job takes over one code pull request in sixteen), a batch each Monday,'
)
console.log(
  'a single run and a request each week. People review about half of the docs pull requests and merge most of'
)
console.log(
  'those they approve, close a few; about one in six conflicts with its base. The sweep runs each Monday with'
)
console.log('every action allowed and the default sweep-limit (10), in-process against the simulated GitHub.\n')
const sweeps = await measureSweeps()
const days = (value: number): string => `${value.toFixed(0)} days`
console.log(
  table(
    ['strategy', 'agent PRs opened', 'merged', 'closed unmerged', 'open at the end', 'longest open', 'sweeps did'],
    sweeps.rows.map((row) => [
      row.strategy,
      String(row.opened),
      String(row.merged),
      String(row.closed),
      String(row.openAtEnd),
      days(row.longestOpenDays),
      row.perSweep.length === 0
        ? ''
        : `closed ${row.bySweep.closed}, merged ${row.bySweep.merged}, asked ${row.bySweep.asked}, failed ${row.bySweep.failed}`
    ])
  )
)
const [unswept, swept] = sweeps.rows
if (swept?.longestOpenWhy) console.log(`\nThe longest-open one after the sweeps: ${swept.longestOpenWhy}.`)
const perSweep = swept?.perSweep ?? []
console.log(
  `GitHub requests of a weekly sweep: ${Math.min(...perSweep)} to ${Math.max(...perSweep)} ` +
    `(${(perSweep.reduce((sum, count) => sum + count, 0) / Math.max(1, perSweep.length)).toFixed(0)} on average).\n`
)
const costRow = (name: string, cost: typeof sweeps.hundred): string[] => [
  name,
  String(cost.open),
  String(cost.reads),
  String(cost.writes),
  String(cost.graphql),
  String(cost.points)
]
console.log(
  table(
    ['one sweep', 'open agent PRs', 'REST reads', 'REST writes', 'GraphQL', 'points (reads 1, writes 5)'],
    [costRow('report only', sweeps.reportOnly), costRow('every action, sweep-limit 10', sweeps.hundred)]
  )
)
if (unswept && swept) {
  judge(
    'a weekly sweep leaves at most half the open agent pull requests of no sweep',
    swept.openAtEnd <= unswept.openAtEnd / 2,
    `${swept.openAtEnd} vs ${unswept.openAtEnd}`
  )
}
judge(
  "a sweep of 100 open agent pull requests within GitHub's secondary limits (<= 900 points, <= 80 writes)",
  sweeps.hundred.points <= 900 && sweeps.hundred.writes <= 80,
  `${sweeps.hundred.points} points, ${sweeps.hundred.writes} writes`
)

await groundingSection()
finish()
