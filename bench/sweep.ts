// The docs pull requests a quarter leaves open, with and without a weekly `mode: sweep` (every action allowed, the
// default sweep-limit), and the GitHub requests one sweep of 100 open agent pull requests costs, against GitHub's
// secondary rate limits. The sweep's own code runs in-process against the simulated GitHub on loopback, on a
// simulated clock.
import { type FakeGitHub, type SimulatedPull, startFakeGitHub } from '../sim/github-api.ts'
import { settingsOf } from '../sim/settings.ts'
import { openDocsSweep } from '../src/github/docs-sweep.ts'
import { openSession } from '../src/github/session.ts'
import { SWEEP_ACTIONS } from '../src/inputs/sweep-settings.ts'
import { sweep, type SweepResult } from '../src/modes/sweep/sweep.ts'
import { openTransport } from '../src/transport/transport.ts'
import { UPDATE_PROMPT } from '../src/github/agent-records.ts'
import { DAY, type Happening, Quarter, seeded, VIEWER } from './quarter.ts'

const HOUR = 3_600_000
/** A Monday. */
const START = Date.parse('2026-09-07T00:00:00Z')
const WEEKS = 13

export interface QuarterRow {
  readonly strategy: string
  readonly opened: number
  readonly merged: number
  readonly closed: number
  readonly openAtEnd: number
  /** Days the longest-open agent pull request has been open at the end. */
  readonly longestOpenDays: number
  /** Why the last sweep left it open, in the sweep's words; empty with no sweep. */
  readonly longestOpenWhy: string
  /** What the sweeps did: closes, merges, follow-ups. */
  readonly bySweep: Readonly<Record<'closed' | 'merged' | 'asked' | 'failed', number>>
  /** GitHub requests of each sweep. */
  readonly perSweep: readonly number[]
}

/** The requests of one sweep, by kind, and GitHub's secondary limits' points: reads 1, writes 5. */
export interface SweepCost {
  readonly open: number
  readonly reads: number
  readonly writes: number
  readonly graphql: number
  readonly points: number
}

const transport = openTransport([], { http: undefined, https: undefined, noProxy: '' }, new AbortController().signal)

export async function measureSweeps(): Promise<{ rows: QuarterRow[]; hundred: SweepCost; reportOnly: SweepCost }> {
  try {
    const rows = [await play(false), await play(true)]
    const { acting, reporting } = await hundred()
    return { rows, hundred: acting, reportOnly: reporting }
  } finally {
    await transport.close()
  }
}

interface Played {
  readonly github: FakeGitHub
  readonly quarter: Quarter
  readonly clock: { now: number }
}

async function world(): Promise<Played> {
  const clock = { now: START }
  const github = await startFakeGitHub({
    owner: 'acme',
    repo: 'api',
    viewer: VIEWER,
    pulls: { 'acme/api': [], 'acme/docs': [] },
    now: () => clock.now
  })
  const quarter = new Quarter(github, 2026)
  schedule(quarter, github, seeded(35))
  return { github, quarter, clock }
}

/** Runs what happens up to `until`, in the order it happens (what happens may make more happen). */
function runUntil(played: Played, until: number): void {
  const queue = played.quarter.happenings
  for (;;) {
    queue.sort((a, b) => a.at - b.at)
    const next = queue[0]
    if (!next || next.at > until) break
    queue.shift()
    played.clock.now = next.at
    next.act()
  }
  played.clock.now = until
}

async function play(weekly: boolean): Promise<QuarterRow> {
  const played = await world()
  const { github, clock } = played
  const bySweep = { closed: 0, merged: 0, asked: 0, failed: 0 }
  const perSweep: number[] = []
  let last: SweepResult | undefined
  try {
    for (let week = 1; week <= WEEKS; week++) {
      const monday = START + week * 7 * DAY + 7 * HOUR
      runUntil(played, monday)
      if (!weekly) continue
      const calls = github.calls.length
      last = await sweepOnce(played, true)
      for (const outcome of last.outcomes) bySweep[outcome.result] += 1
      perSweep.push(github.calls.length - calls)
    }
    const docs = github.pulls.get('acme/docs') ?? []
    const open = docs.filter((pull) => pull.state === 'open')
    const longest = open.reduce<SimulatedPull | undefined>(
      (oldest, pull) => (!oldest || (pull.createdAt ?? '') < (oldest.createdAt ?? '') ? pull : oldest),
      undefined
    )
    const judged = last?.planned.find((entry) => entry.pull.number === longest?.number)
    return {
      strategy: weekly ? 'a weekly sweep, every action' : 'no sweep',
      opened: docs.length,
      merged: docs.filter((pull) => pull.merged).length,
      closed: docs.filter((pull) => pull.state === 'closed' && !pull.merged).length,
      openAtEnd: open.length,
      longestOpenDays: longest ? (clock.now - Date.parse(longest.createdAt ?? '')) / DAY : 0,
      longestOpenWhy: judged ? `${judged.finding}: ${judged.why}` : '',
      bySweep,
      perSweep
    }
  } finally {
    await github.close()
  }
}

async function sweepOnce(played: Played, acting: boolean): Promise<SweepResult> {
  const now = played.clock.now
  const quiet = { info: () => undefined, warning: () => undefined, debug: () => undefined }
  const run = {
    eventName: 'schedule',
    payload: {},
    apiUrl: played.github.url,
    serverUrl: 'https://github.com',
    runId: 1,
    runAttempt: 1
  }
  const settings = settingsOf({ mode: 'sweep', 'github-token': 'ghs_bench' })
  const opened = openSession(
    settings,
    transport.transport,
    { repository: 'acme/api', log: quiet, deadlineMs: 600_000 },
    run
  )
  // The simulated GitHub asks no second between writes, as GitHub asks of an integration: the bench counts requests.
  const session = {
    ...opened,
    client: (...[limits, as]: Parameters<typeof opened.client>) => opened.client({ ...limits, throttled: false }, as)
  }
  const swept = await sweep(openDocsSweep(session, 'acme/docs'), {
    settings: {
      repository: 'acme/docs',
      actions: new Set(acting ? SWEEP_ACTIONS : []),
      limit: 10,
      staleAfterMs: 14 * DAY,
      windowMs: 30 * DAY
    },
    projectId: 'docs',
    now,
    hosts: new Set(['github.com']),
    redact: (text) => text,
    log: quiet,
    followUp: (record) => {
      played.quarter.update(record.number, record.commentId, UPDATE_PROMPT, now)
      return Promise.resolve({ kind: 'sent' })
    }
  })
  if (swept.kind !== 'done') throw new Error(swept.warning)
  return swept.value
}

/** One sweep once 100 agent pull requests are open (no sweep before it): report only, then acting. */
async function hundred(): Promise<{ acting: SweepCost; reporting: SweepCost }> {
  const played = await world()
  try {
    let at = START
    const openCount = () => (played.github.pulls.get('acme/docs') ?? []).filter((p) => p.state === 'open').length
    while (openCount() < 100) runUntil(played, (at += HOUR))
    const cost = async (acting: boolean): Promise<SweepCost> => {
      const before = played.github.calls.length
      const open = openCount()
      await sweepOnce(played, acting)
      const calls = played.github.calls.slice(before)
      const graphql = calls.filter((call) => call === 'POST /graphql').length
      const reads = calls.filter((call) => call.startsWith('GET ')).length
      const writes = calls.length - graphql - reads
      return { open, reads, writes, graphql, points: reads + 5 * writes }
    }
    return { reporting: await cost(false), acting: await cost(true) }
  } finally {
    await played.github.close()
  }
}

/** The quarter's code pull requests (two each weekday), its Monday batches, a single run and a request each week. */
function schedule(quarter: Quarter, github: FakeGitHub, random: () => number): void {
  const code = github.pulls.get('acme/api') ?? []
  const at = (happening: Happening): void => void quarter.happenings.push(happening)
  const between = (from: number, to: number): number => from + random() * (to - from)
  let number = 1000
  const mergedThisWeek: number[] = []
  for (let week = 0; week < WEEKS; week++) {
    const monday = START + week * 7 * DAY
    at({
      at: monday + 6 * HOUR,
      act: () => {
        const pulls = mergedThisWeek.splice(0)
        if (pulls.length === 0) return
        const batch = { from: '', to: 'f'.repeat(40), toDate: monday, pulls }
        quarter.openDocs('batch', 1, monday + 6 * HOUR, { batch })
      }
    })
    at({
      at: monday + 2 * DAY + 10 * HOUR,
      act: () => void quarter.openDocs('single', 2000 + week, monday + 2 * DAY + 10 * HOUR)
    })
    at({
      at: monday + 3 * DAY + 15 * HOUR,
      act: () => void quarter.openDocs('request', 3000 + week, monday + 3 * DAY + 15 * HOUR)
    })
    for (let day = 0; day < 5; day++) {
      for (let n = 0; n < 2; n++) {
        const opened = monday + day * DAY + between(9, 17) * HOUR
        const fate = random()
        const endsAt = opened + (fate < 0.78 ? between(1, 7) : between(2, 10)) * DAY
        const handled = random() < 0.9
        const supersededAt = random() < 0.06 ? opened + between(1, 3) * DAY : undefined
        const closesEarlier = random() < 0.6
        playCode(quarter, {
          code,
          number: number++,
          opened,
          fate,
          endsAt,
          handled,
          supersededAt,
          closesEarlier,
          at,
          mergedThisWeek
        })
      }
    }
  }
}

interface CodePlay {
  readonly code: SimulatedPull[]
  readonly number: number
  readonly opened: number
  /** Below 0.78 merged at `endsAt`, below 0.9 closed unmerged then, else left open. */
  readonly fate: number
  readonly endsAt: number
  /** Whether mode: pair's run on the close event did its work (a run can fail). */
  readonly handled: boolean
  /** When a new job took over the code pull request (its job refused a follow-up), if one did. */
  readonly supersededAt: number | undefined
  /** Whether mode: pair closed the earlier docs pull request once the new one opened. */
  readonly closesEarlier: boolean
  readonly at: (happening: Happening) => void
  readonly mergedThisWeek: number[]
}

/** A code pull request's life, and what mode: pair does with its docs pull requests. */
function playCode(quarter: Quarter, play: CodePlay): void {
  const { number } = play
  const head = number.toString(16).padStart(40, '0')
  const docs: { number: number; recordId: number }[] = []
  const pull: SimulatedPull = { number, state: 'open', labels: [] }
  play.at({
    at: play.opened,
    act: () => {
      play.code.push(pull)
      docs.push(quarter.openDocs('pair', number, play.opened, {}, head))
    }
  })
  const again = play.supersededAt
  if (again !== undefined && again < play.endsAt) {
    play.at({
      at: again,
      act: () => {
        const earlier = docs[0]
        if (!earlier || pull.state !== 'open') return
        const supersedes = `https://github.com/acme/docs/pull/${earlier.number}`
        docs.push(quarter.openDocs('pair', number, again, { supersedes }, head.replace(/^0/, '1')))
        const first = quarter.pull(earlier.number)
        if (play.closesEarlier && first?.state === 'open') quarter.close(first, again + 3 * HOUR)
      }
    })
  }
  if (play.fate >= 0.9) return
  const merged = play.fate < 0.78
  play.at({
    at: play.endsAt,
    act: () => {
      Object.assign(pull, { state: 'closed', merged })
      if (merged) play.mergedThisWeek.push(number)
      if (!play.handled) return
      for (const each of docs) {
        const docsPull = quarter.pull(each.number)
        if (docsPull?.state !== 'open') continue
        if (!merged) quarter.close(docsPull, play.endsAt)
        else docsPull.updatedAt = new Date(play.endsAt).toISOString()
        quarter.rewrite(each.recordId, (state) => ({ ...state, source: merged ? 'merged' : 'closed' }), play.endsAt)
      }
    }
  })
}
