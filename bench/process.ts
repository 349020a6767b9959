// Start-up, bytes loaded and peak memory of the bundled action, next to bare Node making one request, measured
// in the same run on the same Node. Start-up is timed without instrumentation; a second set of runs preloads a
// probe that reports peak RSS and the files each process loaded.
import { spawn } from 'node:child_process'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { jobBody, sendJson, startServer } from '../sim/admin-api.ts'
import { ROOT, runAction } from '../sim/run-action.ts'

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

export type Subject = 'bare' | 'action'

function readProbe(stderr: string): Probe {
  const line = stderr.split('\n').find((text) => text.startsWith('PROBE '))
  if (!line) throw new Error(`the probe reported nothing:\n${stderr}`)
  return JSON.parse(line.slice('PROBE '.length)) as Probe
}

/** One run of bare Node (a single GET) or of the bundled action (started as the runner starts it). */
async function sample(subject: Subject, nodeArgs: string[]): Promise<Sample> {
  let first = 0
  const server = await startServer((_req, res) => {
    first ||= performance.now()
    sendJson(res, 200, jobBody(STORY, 'completed', null))
  })
  try {
    if (subject === 'bare') {
      const script = `require('http').get(${JSON.stringify(`${server.url}/v2/agent/bench/job/job`)}, (res) => res.resume())`
      const started = performance.now()
      const child = spawn(process.execPath, [...nodeArgs, '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] })
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      await new Promise((resolve) => child.on('close', resolve))
      return { startupMs: first - started, stderr }
    }
    let started = 0
    const run = await runAction({
      inputs: { 'project-id': 'bench', 'job-id': 'job', 'api-key': KEY, 'base-url': server.url },
      nodeArgs,
      onSpawn: () => (started = performance.now())
    })
    if (run.exitCode !== 0) throw new Error(`the action failed:\n${run.stdout}`)
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

export interface ProcessFigures {
  readonly runs: number
  readonly bare: { readonly startupMs: number; readonly peakRssKb: number }
  readonly action: { readonly startupMs: number; readonly peakRssKb: number; readonly loadedBytes: number }
  readonly distJsBytes: number
}

/** Alternates bare and action runs, so both see the same machine noise; reports medians. */
export async function measureProcess(runs = 15): Promise<ProcessFigures> {
  const startup: Record<Subject, number[]> = { bare: [], action: [] }
  const rss: Record<Subject, number[]> = { bare: [], action: [] }
  const loaded: number[] = []
  await sample('action', []) // warm the file cache for both
  for (let i = 0; i < runs; i++) {
    for (const subject of ['bare', 'action'] as const) startup[subject].push((await sample(subject, [])).startupMs)
  }
  for (let i = 0; i < Math.ceil(runs / 3); i++) {
    for (const subject of ['bare', 'action'] as const) {
      const probe = readProbe((await sample(subject, PROBE)).stderr)
      rss[subject].push(probe.peakRssKb)
      if (subject === 'action') {
        const dist = `file://${join(ROOT, 'dist')}`
        loaded.push(Object.entries(probe.loaded).reduce((sum, [url, size]) => (url.startsWith(dist) ? sum + size : sum), 0))
      }
    }
  }
  const files = await readdir(join(ROOT, 'dist'))
  let distJsBytes = 0
  for (const file of files.filter((name) => /\.(c|m)?js$/.test(name))) distJsBytes += (await stat(join(ROOT, 'dist', file))).size
  return {
    runs,
    bare: { startupMs: median(startup.bare), peakRssKb: median(rss.bare) },
    action: { startupMs: median(startup.action), peakRssKb: median(rss.action), loadedBytes: median(loaded) },
    distJsBytes
  }
}
