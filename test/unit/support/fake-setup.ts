// A step's setup built from a small description of the world, for the modes' unit tests: the real settings, prompt
// composer and tracking comment, on a simulated clock, over stand-ins for the admin API and GitHub that answer as the
// world says and list every outward call in order. No process, no network, no real time.
import { settingsOf } from '../../../sim/settings.ts'
import { simulatedClock } from '../../../sim/simulated-clock.ts'
import type { PollResult, SubmitResult } from '../../../src/admin-api/job-answers.ts'
import type { AdminApi } from '../../../src/admin-api/client.ts'
import type { Service, StepSetup } from '../../../src/decide/decision.ts'
import type { BranchCommit, EventChange, MergedPull } from '../../../src/github/change.ts'
import type { History } from '../../../src/github/history.ts'
import type { CommentThread } from '../../../src/github/thread.ts'
import type { Done, PullOperations, PullRef } from '../../../src/github/pulls.ts'
import type { DocsPullRecord, GitHubReads } from '../../../src/github/reads.ts'
import type { RequestDesk, RequestRead } from '../../../src/github/desk.ts'
import type { CommentResult, CommentWrite, StoredComment } from '../../../src/github/comment-store.ts'
import type { Role } from '../../../src/inputs/mode-settings.ts'
import type { Settings } from '../../../src/inputs/settings.ts'
import { composePrompt } from '../../../src/prompt/compose.ts'
import { TrackingComment } from '../../../src/report/tracking-comment.ts'
import { outputWriter } from '../../../src/runner/io.ts'

/** The simulated clock's epoch: when every test's step runs. */
export const NOW = Date.parse('2026-11-22T09:00:00Z')

/** What the docs pull request's operations answer, each by its own name. */
export interface PullAnswers {
  readonly comment?: Done<void>
  readonly label?: Done<void>
  readonly close?: Done<'closed' | 'was-closed' | 'merged'>
  readonly reopen?: Done<'reopened' | 'open' | 'merged' | 'refused'>
}

/** The branch a batch follows, as GitHub tells it. */
export interface HistoryWorld {
  /** Oldest first, after the cursor (or since batch-since). */
  readonly commits: readonly BranchCommit[]
  readonly merged: readonly MergedPull[]
  /** The pull requests whose files GitHub will not list. */
  readonly unreadable?: readonly number[]
  /** The cursor's commit is gone from the branch's history. */
  readonly rewritten?: boolean
  /** A note on a covered pull request fails. */
  readonly noteFails?: boolean
}

export interface World {
  /** The step's inputs, read by the real settings reader (the others at action.yml's defaults). */
  readonly inputs?: Record<string, string>
  /** The tracking comments on the issue or pull request, oldest first; an Error: listing them fails with it. */
  readonly tracked?: readonly StoredComment[] | Error
  /** What a second listing finds (a batch looks again before it sends); the first listing's when not given. */
  readonly trackedAgain?: readonly StoredComment[]
  /** The workflow run's attempt (2 for its first re-run). */
  readonly attempt?: number
  /** Why the issue or pull request could not be opened; it is opened when not given. */
  readonly noThread?: string
  /** The admin API's answers: to each start and each follow-up in turn, and to a read of each job. */
  readonly api?: {
    readonly create?: readonly SubmitResult[]
    readonly followUp?: readonly SubmitResult[]
    readonly jobs?: Readonly<Record<string, PollResult>>
  }
  /** The change the event is about; GitHub's reads are set up only with it or with `startsThisHour`. */
  readonly change?: EventChange
  /** With `mode: pair`: what changed since the head the last prompt described. */
  readonly since?: EventChange
  /** Whether the action's own records name the event's pull request as a docs pull request of its jobs. */
  readonly docsRecord?: DocsPullRecord
  /** Jobs the action started in the last hour, by its records. */
  readonly startsThisHour?: number
  /** Who github-token acts as. */
  readonly login?: string
  readonly pulls?: PullAnswers
  readonly history?: HistoryWorld
  /** A person's request, and their role on the repository (an Error: it cannot be read). */
  readonly desk?: { readonly read: RequestRead; readonly role?: Role | Error | undefined }
}

/** What the stand-ins saw, in order. */
export interface Traces {
  /** Every outward call: `api create`, `api follow-up job-1`, `github close #128`, `github comment`… */
  readonly calls: string[]
  /** The tracking comment's writes. */
  readonly writes: CommentWrite[]
  /** The text sent to the admin API, each start or follow-up. */
  readonly sent: string[]
  /** What was said on GitHub besides the tracking comment: replies, notes on pull requests. */
  readonly said: string[]
  readonly log: { readonly info: string[]; readonly warning: string[] }
}

export function fakeSetup(world: World = {}): Traces & { readonly setup: StepSetup } {
  const settings = settingsOf(world.inputs)
  const traces: Traces = { calls: [], writes: [], sent: [], said: [], log: { info: [], warning: [] } }
  const { calls } = traces
  const log = {
    info: (line: string) => traces.log.info.push(line),
    warning: (line: string) => traces.log.warning.push(line),
    debug: () => undefined
  }
  const simulated = simulatedClock(() => 0.5)
  const clock = { ...simulated, date: () => NOW + simulated.now(), whenCancelled: new Promise<void>(() => undefined) }
  const redact = (text: string) => text.replaceAll(settings.apiKey, '***')
  const github = world.noThread === undefined ? fakeThread(world, traces) : undefined
  const reads = world.change !== undefined || world.startsThisHour !== undefined ? fakeReads(world, calls) : undefined
  const commentRunner = { ...clock, outputs: outputWriter(() => undefined), log, endsBy: () => Infinity }
  let login: Promise<string | undefined> | undefined
  const setup: StepSetup = {
    sweep: undefined,
    settings,
    clock,
    startedAt: 0,
    deadline: settings.timeoutMs,
    api: fakeApi(world, traces),
    thread: github,
    threadUnavailable: world.noThread,
    reads,
    pulls: world.pulls !== undefined || settings.mode === 'pair' ? fakePulls(world.pulls ?? {}, traces) : undefined,
    codeReads: undefined,
    code: { repository: 'acme/code', workspace: '', head: () => Promise.reject(new Error('a mode reads no code')) },
    history: world.history ? fakeHistory(world.history, settings, traces) : undefined,
    login: () => (login ??= (calls.push('github login'), Promise.resolve(world.login))),
    docsLogin: () => Promise.resolve(undefined),
    desk: world.desk ? fakeDesk(world.desk, traces) : undefined,
    githubHosts: new Set(['github.com']),
    runId: '42',
    step: 'docs/agent',
    log,
    redact,
    openComment: (start) =>
      settings.githubUse.comment && github ? new TrackingComment(github, commentRunner, start) : undefined,
    compose: async (prompt) => {
      const change = settings.context === 'auto' ? await reads?.change() : undefined
      return composePrompt(prompt, settings, change, redact, log)
    }
  }
  return { ...traces, setup }
}

function fakeApi(world: World, { calls, sent }: Traces): AdminApi {
  const creates = [...(world.api?.create ?? [])]
  const followUps = [...(world.api?.followUp ?? [])]
  const accepted = (n: number): SubmitResult => ({ kind: 'accepted', jobId: `job-${n}`, job: undefined })
  return {
    getJob: (jobId) => {
      calls.push(`api get ${jobId}`)
      const answer = world.api?.jobs?.[jobId]
      return Promise.resolve(answer ?? { kind: 'permanent', reason: `the world holds no ${jobId}` })
    },
    createJob: (text) => {
      calls.push('api create')
      sent.push(text)
      return Promise.resolve(creates.shift() ?? accepted(100 + sent.length))
    },
    sendFollowUp: (jobId, text) => {
      calls.push(`api follow-up ${jobId}`)
      sent.push(text)
      return Promise.resolve(followUps.shift() ?? { kind: 'accepted', jobId, job: undefined })
    },
    triggerPreview: () => Promise.reject(new Error('a mode builds no preview')),
    readPreviewBuild: () => Promise.reject(new Error('a mode builds no preview'))
  }
}

/** Issue #12 of acme/widgets, whose listing answers as the world says and whose writes all land. */
function fakeThread(world: World, { calls, writes }: Traces): CommentThread {
  let listings = 0
  let nextId = 900
  return {
    target: { owner: 'acme', repo: 'widgets', number: 12, noun: 'issue', from: 'event' },
    run: { id: '42', attempt: world.attempt ?? 1, url: 'https://github.com/acme/widgets/actions/runs/42' },
    listTracked: () => {
      calls.push('github list comments')
      const listed = listings++ > 0 && world.trackedAgain ? world.trackedAgain : (world.tracked ?? [])
      return listed instanceof Error ? Promise.reject(listed) : Promise.resolve([...listed])
    },
    write: (write) => {
      calls.push(write.commentId === undefined ? 'github comment' : `github edit comment ${write.commentId}`)
      writes.push(write)
      const commentId = write.commentId ?? nextId++
      const url = `https://github.com/acme/widgets/issues/12#issuecomment-${commentId}`
      const result: CommentResult = { kind: 'commented', commentId, url, state: write.state }
      return Promise.resolve(result)
    }
  }
}

function fakeReads(world: World, calls: string[]): GitHubReads {
  let change: Promise<EventChange> | undefined
  const none: EventChange = { facts: { kind: 'none', reason: 'no change' }, fetched: {}, calls: 0 }
  return {
    change: () => (change ??= (calls.push('github read change'), Promise.resolve(world.change ?? none))),
    startsSince: () => {
      calls.push('github count starts')
      return Promise.resolve({ kind: 'counted', starts: world.startsThisHour ?? 0 })
    },
    since: (_pull, before) => {
      calls.push(`github compare ${before.slice(0, 7)}`)
      return Promise.resolve(world.since ?? none)
    },
    recordsAsDocs: () => {
      calls.push('github read records')
      return Promise.resolve(world.docsRecord ?? { kind: 'not own' })
    },
    latestBatchRecord: () => Promise.reject(new Error('a mode looks for no digest issue'))
  }
}

function fakePulls(answers: PullAnswers, { calls, said }: Traces): Service<PullOperations> {
  const done = { kind: 'done', value: undefined } as const
  const at = (ref: PullRef) => `#${ref.number}`
  return {
    comment: (ref, body) => (calls.push(`github comment ${at(ref)}`), said.push(body), answer(answers.comment ?? done)),
    label: (ref, label) => (calls.push(`github label ${at(ref)} ${label}`), answer(answers.label ?? done)),
    close: (ref) => (calls.push(`github close ${at(ref)}`), answer(answers.close ?? { kind: 'done', value: 'closed' })),
    reopen: (ref) => {
      calls.push(`github reopen ${at(ref)}`)
      return answer(answers.reopen ?? { kind: 'done', value: 'reopened' })
    },
    files: () => Promise.reject(new Error('a mode reads no docs pull request files')),
    head: () => Promise.reject(new Error('a mode reads no head')),
    commits: () => Promise.reject(new Error('a mode reads no docs pull request')),
    startCheck: () => Promise.reject(new Error('a mode makes no check run')),
    updateCheck: () => Promise.reject(new Error('a mode makes no check run'))
  }
}

function answer<T>(done: T): Promise<T> {
  return Promise.resolve(done)
}

function fakeHistory(world: HistoryWorld, settings: Settings, { calls, said }: Traces): Service<History> {
  let asked = 0
  const call = (what: string) => (asked++, calls.push(`github ${what}`))
  const window = { commits: world.commits, rewritten: world.rewritten === true, more: false }
  return {
    owner: 'acme',
    repo: 'widgets',
    calls: () => asked,
    branch: () => Promise.resolve(settings.batch.branch ?? 'main'),
    head: () => Promise.reject(new Error('a batch reads its commits, not the head')),
    after: (from) => (call(`commits after ${from.slice(0, 7)}`), Promise.resolve(window)),
    since: () => (call('commits since'), Promise.resolve(window)),
    merged: () => (call('merged'), Promise.resolve({ pulls: world.merged, complete: true })),
    mergedBy: (sha) => (
      call(`merged-by ${sha.slice(0, 7)}`),
      Promise.resolve(world.merged.find((pull) => pull.mergeCommit === sha))
    ),
    files: (pull) => {
      call(`files #${pull.number}`)
      if (world.unreadable?.includes(pull.number)) return Promise.reject(new Error('HTTP 502'))
      return Promise.resolve({
        files: [{ path: `src/${pull.number}.ts`, status: 'modified', additions: 3, deletions: 1 }]
      })
    },
    digestIssue: () => {
      throw new Error('the digest issue is found in the setup, not by a mode')
    },
    note: (number, body) => {
      call(`note #${number}`)
      said.push(body)
      return world.noteFails ? Promise.reject(new Error('HTTP 403')) : Promise.resolve()
    }
  }
}

function fakeDesk(world: NonNullable<World['desk']>, { calls, said }: Traces): Service<RequestDesk> {
  return {
    read: world.read,
    action: world.read.kind === 'request' && world.read.request.command.kind === 'label' ? 'labeled' : 'created',
    role: (login) => {
      calls.push(`github role ${login}`)
      return world.role instanceof Error ? Promise.reject(world.role) : Promise.resolve(world.role ?? 'write')
    },
    react: (request, content) => {
      if (request.comment !== undefined) calls.push(`github react ${content}`)
      return Promise.resolve()
    },
    reply: (_request, body) => (calls.push('github reply'), said.push(body), Promise.resolve()),
    removeLabel: (_request, label) => {
      calls.push(`github remove label ${label}`)
      return Promise.resolve()
    }
  }
}
