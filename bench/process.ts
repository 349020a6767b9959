// Start-up, bytes loaded and peak memory of the bundled action, measured in the same run on the same Node next to
// two baselines: the toolkit floor (bench/floor.ts bundled with ncc, minified: core reads the inputs, undici makes
// one GET, core sets one output) and bare Node making one `fetch`. Start-up is timed without instrumentation; a
// second set of runs preloads a probe that reports peak RSS and the files each process loaded.
import { execFileSync, spawn } from 'node:child_process'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { jobBody, sendJson, startServer } from '../sim/admin-api.ts'
import { DIST_ENTRY, ROOT, runAction } from '../sim/run-action.ts'

const PROBE = ['--import', join(ROOT, 'bench', 'probe.mjs')]
const KEY = 'mint_bench_key'
const STORY = { projectId: 'bench', jobId: 'job', apiKey: KEY, final: { status: 'completed' } }

interface Probe {
  readonly peakRssKb: number
  readonly loaded: Record<string, number>
}

interface Sample {
  /** Spawn to the first request arriving at the server. */
  readonly startupMs: number
  readonly stderr: string
}

export type Subject = 'bare' | 'floor' | 'action'

function readProbe(stderr: string): Probe {
  const line = stderr.split('\n').find((text) => text.startsWith('PROBE '))
  if (!line) throw new Error(`the probe reported nothing:\n${stderr}`)
  return JSON.parse(line.slice('PROBE '.length)) as Probe
}

/** Bundles bench/floor.ts as the action is bundled (ncc, minified); returns the entry and a clean-up. */
export async function buildFloor(): Promise<{ entry: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-floor-'))
  const ncc = createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js')
  execFileSync(process.execPath, [ncc, 'build', join(ROOT, 'bench', 'floor.ts'), '-o', dir, '--minify', '--quiet'], {
    cwd: ROOT
  })
  return { entry: join(dir, 'index.js'), remove: () => rm(dir, { recursive: true, force: true }) }
}

/** One run of bare Node (a single fetch), of the floor or of the bundled action (each started as the runner would). */
async function sample(subject: Subject, nodeArgs: string[], floorEntry: string): Promise<Sample> {
  let first = 0
  const server = await startServer((_req, res) => {
    first ||= performance.now()
    sendJson(res, 200, jobBody(STORY, 'completed', null))
  })
  try {
    if (subject === 'bare') {
      const script = `fetch(${JSON.stringify(`${server.url}/v2/agent/bench/job/job`)}).then((res) => res.text())`
      const started = performance.now()
      const child = spawn(process.execPath, [...nodeArgs, '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      await new Promise((resolve) => child.on('close', resolve))
      return { startupMs: first - started, stderr }
    }
    let started = 0
    const run = await runAction({
      // The floor reads the inputs and makes one GET; the action is started as users start it, from a prompt (its
      // first request is the POST that starts the job).
      inputs:
        subject === 'floor'
          ? { 'project-id': 'bench', 'job-id': 'job', 'api-key': KEY, 'base-url': server.url }
          : { 'project-id': 'bench', prompt: 'Document the benchmark', 'api-key': KEY, 'base-url': server.url },
      nodeArgs,
      entry: subject === 'floor' ? floorEntry : DIST_ENTRY,
      onSpawn: () => (started = performance.now())
    })
    if (run.exitCode !== 0) throw new Error(`the ${subject} run failed:\n${run.stdout}${run.stderr}`)
    return { startupMs: first - started, stderr: run.stderr }
  } finally {
    await server.close()
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

interface Figures {
  readonly startupMs: number
  readonly peakRssKb: number
}

export interface ProcessFigures {
  readonly runs: number
  readonly bare: Figures
  readonly floor: Figures & { readonly bundleBytes: number }
  readonly action: Figures & { readonly loadedBytes: number }
  readonly entryBytes: number
  readonly distJsBytes: number
}

/** Alternates the subjects, so all see the same machine noise; reports medians. */
export async function measureProcess(runs = 15): Promise<ProcessFigures> {
  const floor = await buildFloor()
  try {
    const subjects = ['bare', 'floor', 'action'] as const
    const startup: Record<Subject, number[]> = { bare: [], floor: [], action: [] }
    const rss: Record<Subject, number[]> = { bare: [], floor: [], action: [] }
    const loaded: number[] = []
    for (const subject of subjects) await sample(subject, [], floor.entry) // warm the file cache
    for (let i = 0; i < runs; i++) {
      for (const subject of subjects) startup[subject].push((await sample(subject, [], floor.entry)).startupMs)
    }
    for (let i = 0; i < Math.ceil(runs / 3); i++) {
      for (const subject of subjects) {
        const probe = readProbe((await sample(subject, PROBE, floor.entry)).stderr)
        rss[subject].push(probe.peakRssKb)
        if (subject === 'action') {
          const dist = `file://${join(ROOT, 'dist')}`
          loaded.push(
            Object.entries(probe.loaded).reduce((sum, [url, size]) => (url.startsWith(dist) ? sum + size : sum), 0)
          )
        }
      }
    }
    const jsBytes = async (dir: string): Promise<number> => {
      let total = 0
      for (const file of (await readdir(dir)).filter((name) => /\.(c|m)?js$/.test(name)))
        total += (await stat(join(dir, file))).size
      return total
    }
    const figures = (subject: Subject): Figures => ({
      startupMs: median(startup[subject]),
      peakRssKb: median(rss[subject])
    })
    return {
      runs,
      bare: figures('bare'),
      floor: { ...figures('floor'), bundleBytes: (await stat(floor.entry)).size },
      action: { ...figures('action'), loadedBytes: median(loaded) },
      entryBytes: (await stat(DIST_ENTRY)).size,
      distJsBytes: await jsBytes(join(ROOT, 'dist'))
    }
  } finally {
    await floor.remove()
  }
}

export interface LoadFigures {
  /** Loading node:http2 in a process that has loaded node:http and node:https already. */
  readonly http2Ms: number
  /** Loading undici (which loads node:http2 among the rest). */
  readonly undiciMs: number
  /** Loading @actions/core (which loads undici through its OIDC client). */
  readonly coreMs: number
}

/** Where start-up goes: the time to load each module in a fresh process, medians of `runs`. */
export function measureModuleLoads(runs = 9): LoadFigures {
  const timeLoad = (setup: string, load: string): number => {
    const script = `${setup}; const t = performance.now(); ${load}; process.stdout.write(String(performance.now() - t))`
    return Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })
    )
  }
  const samples = { http2Ms: [] as number[], undiciMs: [] as number[], coreMs: [] as number[] }
  const base = "await import('node:http'); await import('node:https')"
  for (let i = 0; i < runs; i++) {
    samples.http2Ms.push(timeLoad(base, "await import('node:http2')"))
    samples.undiciMs.push(timeLoad(base, "await import('undici')"))
    samples.coreMs.push(timeLoad(base, "await import('@actions/core')"))
  }
  return { http2Ms: median(samples.http2Ms), undiciMs: median(samples.undiciMs), coreMs: median(samples.coreMs) }
}
