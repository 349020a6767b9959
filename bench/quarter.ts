// A quarter of a repository's agent pull requests, played on a simulated clock in the simulated GitHub: code pull
// requests with their docs pull requests (`mode: pair`, whose runs now and then miss an event), a batch each Monday,
// single runs and people's requests; people reviewing, merging and closing at a pace of their own; some docs pull
// requests conflicting with their base. Each docs pull request's fate is drawn when it opens, so that a run with a
// weekly sweep and one without meet the same people.
import type { FakeGitHub, SimulatedPull } from '../sim/github-api.ts'
import { markerOf, promptHash, readMarker, type TrackingState } from '../src/github/tracking-record.ts'
import type { Origin } from '../src/github/agent-records.ts'

export const DAY = 86_400_000
const HOUR = 3_600_000
export const VIEWER = 'github-actions[bot]'
const AGENT = 'mintlify[bot]'

/** Mulberry32: the same quarter every time. */
export function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Something that happens at a time: it looks at the world as it is then. */
export interface Happening {
  readonly at: number
  readonly act: () => void
}

/** The docs pull requests the agent opened, and the records that tie them to their jobs. */
export class Quarter {
  readonly #github: FakeGitHub
  readonly #random: () => number
  readonly #happenings: Happening[] = []
  #nextRecord = 500_000
  #nextDocs = 1
  /** Every agent pull request, with its origin and the record's comment id. */
  readonly agentPulls: { readonly number: number; readonly origin: Origin; readonly recordId: number }[] = []

  constructor(github: FakeGitHub, seed: number) {
    this.#github = github
    this.#random = seeded(seed)
  }

  get happenings(): Happening[] {
    return this.#happenings
  }

  #chance(p: number): boolean {
    return this.#random() < p
  }

  #between(from: number, to: number): number {
    return from + this.#random() * (to - from)
  }

  #later(at: number, act: () => void): void {
    this.#happenings.push({ at, act })
  }

  /** A docs pull request, by number. */
  pull(number: number): SimulatedPull | undefined {
    return this.#docs().find((candidate) => candidate.number === number)
  }

  #docs(): SimulatedPull[] {
    return this.#github.pulls.get('acme/docs') ?? []
  }

  #code(): SimulatedPull[] {
    return this.#github.pulls.get('acme/api') ?? []
  }

  /** A record the action writes once its job opened docs pull request `number`, on issue `issue`. */
  #record(issue: number, state: TrackingState, at: number): number {
    const id = this.#nextRecord++
    const stamp = new Date(at).toISOString()
    const body = `${markerOf(state)}\nTracking.`
    this.#github.comments.push({ id, repo: 'acme/api', issue, body, user: VIEWER, createdAt: stamp, updatedAt: stamp })
    return id
  }

  /** The record changed (how the code pull request ended, a follow-up sent). */
  rewrite(id: number, change: (state: TrackingState) => TrackingState, at: number): void {
    const stored = this.#github.comments.find((comment) => comment.id === id)
    const state = stored && readMarker(stored.body)
    if (!stored || !state) return
    stored.body = `${markerOf(change(state))}\nTracking.`
    stored.updatedAt = new Date(at).toISOString()
  }

  /** The agent opens a docs pull request for a job started at `at`; its fate is drawn now. */
  openDocs(origin: Origin, issue: number, at: number, more: Partial<TrackingState> = {}, head?: string) {
    const number = this.#nextDocs++
    const created = at + this.#between(0.5, 3) * HOUR
    const stamp = new Date(created).toISOString()
    const pull: SimulatedPull = {
      number,
      title: `Docs for ${origin} ${issue}`,
      user: AGENT,
      state: 'open',
      labels: [],
      headSha: number.toString(16).padStart(40, '0'),
      createdAt: stamp,
      updatedAt: stamp,
      commits: [{ sha: 'a'.repeat(40), author: AGENT, email: 'agent@mintlify.com', date: stamp }],
      checks: { runs: [this.#chance(0.1) ? 'completed/failure' : 'completed/success'] }
    }
    this.#docs().push(pull)
    const start = {
      kind: 'start',
      run: `${number}`,
      attempt: 1,
      prompt: 'p',
      line: 'Docs',
      project: 'docs',
      at
    } as const
    const state: TrackingState = {
      job: `job-${number}`,
      requests: [{ ...start, ...(head ? { head } : {}), ...(origin === 'request' ? { asked: true as const } : {}) }],
      pr: `https://github.com/acme/docs/pull/${number}`,
      ...more
    }
    const recordId = this.#record(issue, state, created + 10 * 60_000)
    this.agentPulls.push({ number, origin, recordId })
    this.#drawFate(pull, created, origin === 'pair' ? issue : undefined)
    return { number, recordId }
  }

  /** What people will do with it: a conflict, a commit, a review and a merge, or a close. */
  #drawFate(pull: SimulatedPull, created: number, code: number | undefined): void {
    const touch = (at: number): void => {
      pull.updatedAt = new Date(at).toISOString()
    }
    const open = (): boolean => pull.state === 'open'
    if (this.#chance(0.18)) this.#later(created + this.#between(2, 8) * DAY, () => void (pull.mergeable = false))
    if (this.#chance(0.05)) {
      const at = created + this.#between(1, 5) * DAY
      this.#later(at, () => {
        if (!open()) return
        pull.commits?.push({ sha: 'b'.repeat(40), author: 'mona', email: 'mona@example.com' })
        touch(at)
      })
    }
    if (this.#chance(0.08)) {
      const at = created + this.#between(3, 20) * DAY
      this.#later(at, () => {
        if (open()) this.close(pull, at)
      })
      return
    }
    if (!this.#chance(0.55)) return
    const reviewedAt = created + this.#between(1, 10) * DAY
    const approves = this.#chance(0.8)
    this.#later(reviewedAt, () => {
      if (!open()) return
      ;(pull.reviews ??= []).push({ user: 'octocat', state: approves ? 'APPROVED' : 'CHANGES_REQUESTED' })
      touch(reviewedAt)
    })
    if (!approves || !this.#chance(0.65)) return
    const mergedAt = reviewedAt + this.#between(0, 3) * DAY
    this.#later(mergedAt, () => {
      const codeMerged = code === undefined || this.#code().some((pr) => pr.number === code && pr.merged)
      if (open() && codeMerged && pull.mergeable !== false) this.merge(pull, mergedAt)
    })
  }

  close(pull: SimulatedPull, at: number): void {
    const stamp = new Date(at).toISOString()
    Object.assign(pull, { state: 'closed', closedAt: stamp, updatedAt: stamp })
  }

  merge(pull: SimulatedPull, at: number): void {
    const stamp = new Date(at).toISOString()
    Object.assign(pull, { state: 'closed', merged: true, mergedAt: stamp, closedAt: stamp, updatedAt: stamp })
  }

  /** The agent brings a conflicted branch up to date, a couple of hours after it is asked. */
  update(number: number, recordId: number, prompt: string, at: number): void {
    this.rewrite(recordId, (state) => ({ ...state, requests: [...state.requests, followUp(prompt, at)] }), at)
    const pull = this.#docs().find((candidate) => candidate.number === number)
    this.#later(at + 2 * HOUR, () => {
      if (pull?.state !== 'open') return
      pull.mergeable = true
      pull.commits?.push({ sha: 'c'.repeat(40), author: AGENT, email: 'agent@mintlify.com' })
      pull.updatedAt = new Date(at + 2 * HOUR).toISOString()
    })
  }
}

function followUp(prompt: string, at: number) {
  return { kind: 'follow-up', run: 'sweep', attempt: 1, prompt: promptHash(prompt), line: 'Update', at } as const
}
