// The grounding check's rounds, on the step's stand-ins: what is sent to the job, how many times, and what is said.
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { StepSetup } from '../../../src/decide/decision.ts'
import type { ChangedFile } from '../../../src/github/change.ts'
import type { ReviewPost } from '../../../src/github/review.ts'
import { parseJob } from '../../../src/admin-api/agent-job.ts'
import { groundJob, roundPrompt } from '../../../src/after-job/grounding-rounds.ts'
import type { WaitResult } from '../../../src/wait/job-wait.ts'
import { repositoryTarball } from '../../../sim/tarball.ts'
import { fakeSetup, type World } from '../support/fake-setup.ts'
import { earlierAttemptOf, refused, trackedJob } from '../support/world.ts'
import { addedFile } from './grounding-support.ts'

const CODE = { 'src/client.ts': 'export class Client {\n  users = { list() {}, create() {} }\n}\n' }
const CLEAN = addedFile('docs/api.mdx', '```js\nconst client = new Client()\nawait client.users.list()\n```')
const INVENTED = addedFile('docs/api.mdx', '```js\nconst client = new Client()\nawait client.users.deleteMany()\n```')

function completed(): WaitResult {
  const parsed = parseJob(
    { id: 'job-1', status: 'completed', prLink: 'https://github.com/acme/site/pull/128' },
    { jobId: 'job-1', githubHosts: new Set(['github.com']) }
  )
  const job = parsed.kind === 'job' ? parsed.job : undefined
  return { kind: 'completed', job, polls: 2, faults: 0, elapsedMs: 1000 }
}

/** The step with the docs pull request's files in turn (the last one for every later read). */
function grounded(world: World, files: readonly ChangedFile[]) {
  const fake = fakeSetup({ ...world, pulls: {}, inputs: { comment: 'true', prompt: 'Document it', ...world.inputs } })
  const pulls = fake.setup.pulls
  if (pulls === undefined) throw new Error('the world holds the docs pull request')
  const reads: string[] = []
  const reviews: (ReviewPost | undefined)[] = []
  const setup: StepSetup = {
    ...fake.setup,
    pulls: {
      ...pulls,
      files: () => {
        reads.push('files')
        if (files.length === 0) {
          const warning =
            'Could not read the files of pull request #128 in acme/site (HTTP 403): docs-token needs pull-requests: write on acme/site.'
          return Promise.resolve({ kind: 'warning', warning } as const)
        }
        const listed = files[Math.min(reads.filter((read) => read === 'files').length - 1, files.length - 1)] ?? CLEAN
        return Promise.resolve({ kind: 'done', value: { files: [listed], complete: true } } as const)
      },
      commits: () => Promise.resolve({ kind: 'done', value: { base: 'b'.repeat(40), head: 'd'.repeat(40) } } as const)
    },
    codeReads: {
      tarball: (where) => {
        reads.push(`tarball ${where.repo}`)
        const archive = repositoryTarball('top', where.repo === 'code' ? CODE : { 'docs/index.mdx': '# Acme' })
        const chunks = Readable.from([archive])
        return Promise.resolve({ kind: 'done', value: { chunks, bytes: () => archive.length } } as const)
      },
      review: {
        replace: (_ref, post) => {
          reviews.push(post)
          return Promise.resolve({ kind: 'done', value: undefined } as const)
        }
      }
    },
    code: {
      repository: 'acme/code',
      workspace: '',
      head: () => Promise.resolve({ kind: 'done', value: 'c'.repeat(40) } as const)
    }
  }
  let waits = 0
  const comment = setup.openComment({ state: { job: 'job-1', requests: [] }, find: false })
  const run = () =>
    groundJob(setup, { jobId: 'job-1', comment, waitAgain: () => (waits++, Promise.resolve(completed())) }, completed())
  return { ...fake, run, reads, reviews, waits: () => waits }
}

describe('groundJob', () => {
  it('with report, tells the names found nowhere and sends nothing; the code and the docs before are read once', async () => {
    const { run, calls, reviews, reads, log } = grounded({ inputs: { grounding: 'report' } }, [INVENTED])
    const { grounding } = await run()
    expect(grounding).toMatchObject({ kind: 'ungrounded', findings: [{ name: 'client.users.deleteMany()', line: 3 }] })
    expect(calls.filter((call) => call.startsWith('api'))).toEqual([])
    expect(reviews[0]?.lines).toMatchObject([{ path: 'docs/api.mdx', line: 3 }])
    expect(reads.filter((read) => read.startsWith('tarball')).sort()).toEqual(['tarball code', 'tarball site'])
    expect(log.info).toContain('  not found: client.users.deleteMany() (docs/api.mdx:3)')
  })

  it('with fix, sends one follow-up naming each, waits, checks again: fixed, and the earlier review replaced', async () => {
    const { run, calls, sent, reviews, waits } = grounded({ inputs: { grounding: 'fix' } }, [INVENTED, CLEAN])
    const { grounding } = await run()
    expect(grounding).toEqual({ kind: 'fixed', names: 2 })
    expect(calls.filter((call) => call.startsWith('api'))).toEqual(['api follow-up job-1'])
    expect(sent[0]).toContain('`docs/api.mdx`, line 3: `client.users.deleteMany()`')
    expect(waits()).toBe(1)
    expect(reviews).toEqual([undefined])
  })

  it.each([
    [
      'the agent never corrects them: as many follow-ups as grounding-rounds',
      { 'grounding-rounds': '2' },
      {},
      2,
      undefined
    ],
    ['a refused follow-up ends the rounds, told', {}, { api: { followUp: [refused(400)] } }, 1, 'was not sent'],
    [
      'a re-run whose earlier attempt sent the round sends nothing twice',
      {},
      { attempt: 2, tracked: [trackedJob('job-1', { requests: [earlierAttemptOf(roundPrompt(1))] })] },
      0,
      'already sent (or may have sent)'
    ]
  ] as const)('%s', async (_, inputs, world, followUps, note) => {
    const { run, calls } = grounded({ ...world, inputs: { grounding: 'fix', ...inputs } }, [INVENTED])
    const { grounding } = await run()
    expect(calls.filter((call) => call.startsWith('api follow-up'))).toHaveLength(followUps)
    expect(grounding?.kind).toBe('ungrounded')
    if (note !== undefined) expect(grounding?.kind === 'ungrounded' ? grounding.note : '').toContain(note)
  })

  it('says unchecked, and why, when the docs pull request cannot be read, and sends nothing', async () => {
    const { run, log, calls, reviews } = grounded({ inputs: { grounding: 'fix' } }, [])
    const { grounding } = await run()
    expect(grounding).toEqual({
      kind: 'unchecked',
      reason:
        'Could not read the files of pull request #128 in acme/site (HTTP 403): docs-token needs pull-requests: write on acme/site'
    })
    expect(log.warning).toContain(
      'Grounding: the code names were not checked: Could not read the files of pull request #128 in acme/site (HTTP 403): docs-token needs pull-requests: write on acme/site.'
    )
    expect(calls.filter((call) => call.startsWith('api'))).toEqual([])
    expect(reviews).toEqual([])
  })
})
