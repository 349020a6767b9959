// After the job, whatever the mode: whether the code names its docs pull request adds are found in the code (see
// docs/grounding.md). The code is the workflow's checkout when GITHUB_WORKSPACE holds one of this repository, else its
// tarball at the commit the run describes; the docs before the change are the docs repository's tarball at the pull
// request's base. Both are read once a step, however many times the check is made.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { StepSetup } from '../decide/decision.ts'
import type { PullRef } from '../github/pulls.ts'
import type { Finding } from '../report/grounding-report.ts'
import { forLog } from '../text/untrusted.ts'
import type { WaitResult } from '../wait/job-wait.ts'
import { type CorpusRead, readWorkTree } from './corpus.ts'
import { readTarball } from './corpus-tarball.ts'
import { isMarkdownPath } from './docs-change.ts'
import { groundingVerdict, type GroundingVerdict } from './grounding-verdict.ts'

/** One check of the docs pull request: the verdict, and where its lines are on GitHub. */
export interface Checked {
  readonly verdict: GroundingVerdict
  readonly pull: PullRef
  /** Each finding with a link to its line at the pull request's head. */
  readonly findings: readonly Finding[]
}

export interface GroundingCheck {
  /** The check of the job's docs pull request; undefined when the job did not complete with one. */
  run(result: WaitResult): Promise<Checked | undefined>
}

/** The check for this step, its code and its docs before the change read at most once. */
export function groundingCheck(setup: StepSetup): GroundingCheck {
  let code: Promise<CorpusRead> | undefined
  let before: Promise<CorpusRead> | undefined
  return {
    run: async (result) => {
      const pr = result.job?.pr
      if (result.kind !== 'completed' || pr?.kind !== 'link') return undefined
      const pull = pr.pullRequest
      const unchecked = (reason: string): Checked => ({
        verdict: { kind: 'unchecked', reason },
        pull: pull ?? { owner: '', repo: '', number: 0 },
        findings: []
      })
      if (pull === undefined) return unchecked(`${pr.url.href} is not a GitHub pull request whose files can be read`)
      const { pulls, codeReads } = setup
      if (pulls === undefined || codeReads === undefined) return unchecked('GitHub could not be set up')
      const [files, commits] = await Promise.all([pulls.files(pull), pulls.commits(pull)])
      if (files.kind === 'warning') return unchecked(withoutStop(files.warning))
      if (commits.kind === 'warning') return unchecked(withoutStop(commits.warning))
      if (!files.value.complete) return unchecked(`GitHub lists only ${files.value.files.length} of its files`)
      // A change without Markdown adds no names: neither the code nor the docs before it are read.
      if (!files.value.files.some((file) => isMarkdownPath(file.path)))
        return { verdict: { kind: 'passed', names: 0 }, pull, findings: [] }
      code ??= readCode(setup)
      before ??= readDocsBefore(setup, pull, commits.value.base)
      const ignore = setup.settings.grounding.ignore
      const verdict = groundingVerdict({ files: files.value.files, code: await code, docsBefore: await before, ignore })
      const head = commits.value.head
      const findings =
        verdict.kind === 'ungrounded' ? verdict.findings.map((found) => linked(pr.url, pull, head, found)) : []
      return { verdict, pull, findings }
    }
  }
}

/** A GitHub warning ends in a full stop; a reason is said inside a sentence. */
function withoutStop(text: string): string {
  return text.replace(/\.$/, '')
}

/** The finding with a link to its line at the pull request's head, on the pull request's own host. */
function linked(url: URL, pull: PullRef, head: string, finding: Omit<Finding, 'url'>): Finding {
  if (!/^[0-9a-f]{40}$/i.test(head)) return finding
  const path = finding.path.split('/').map(encodeURIComponent).join('/')
  const repository = `${encodeURIComponent(pull.owner)}/${encodeURIComponent(pull.repo)}`
  return { ...finding, url: `${url.origin}/${repository}/blob/${head}/${path}#L${finding.line}` }
}

/** The code: the checkout, when there is one of this repository, else the tarball at the commit the run describes. */
async function readCode(setup: StepSetup): Promise<CorpusRead> {
  const { code, log } = setup
  const skip = isMarkdownPath
  const { repository } = code
  if (code.workspace !== '' && (await isCheckoutOf(code.workspace, repository))) {
    const read = await readWorkTree(code.workspace, { skip, what: 'the checkout' })
    if (read.kind === 'read') log.info(`Grounding: the code is the checkout (${textFiles(read.corpus.files)}).`)
    return read
  }
  const head = await code.head()
  if (head.kind === 'warning')
    return { kind: 'unchecked', reason: `the code's commit is unknown: ${withoutStop(head.warning)}` }
  if (head.value === '') return { kind: 'unchecked', reason: 'the run names no commit of the code (GITHUB_SHA)' }
  const [owner = '', repo = ''] = repository.split('/')
  return tarballOf(setup, { owner, repo, ref: head.value, as: 'own' }, { skip, what: "the repository's tarball" })
}

/** The docs before the change: the docs repository at the pull request's base. */
function readDocsBefore(setup: StepSetup, pull: PullRef, base: string): Promise<CorpusRead> {
  if (base === '')
    return Promise.resolve({ kind: 'unchecked', reason: 'GitHub named no base commit of the docs pull request' })
  const where = { owner: pull.owner, repo: pull.repo, ref: base, as: 'docs' } as const
  return tarballOf(setup, where, { what: "the docs repository's tarball" })
}

async function tarballOf(
  setup: StepSetup,
  where: { readonly owner: string; readonly repo: string; readonly ref: string; readonly as: 'own' | 'docs' },
  options: { readonly skip?: (path: string) => boolean; readonly what: string }
): Promise<CorpusRead> {
  const download = await setup.codeReads?.tarball(where)
  if (download === undefined) return { kind: 'unchecked', reason: 'GitHub could not be set up' }
  if (download.kind === 'warning') return { kind: 'unchecked', reason: withoutStop(download.warning) }
  const read = await readTarball(download.value.chunks, options)
  const refused = read.refused.outside + read.refused.links + read.refused.huge
  const mib = (download.value.bytes() / 1024 / 1024).toFixed(2)
  const files = read.kind === 'read' ? textFiles(read.corpus.files) : 'not read whole'
  const entries =
    refused === 0
      ? ''
      : `; refused ${refused} entries (outside its folder: ${read.refused.outside}, links: ${read.refused.links}, too large: ${read.refused.huge})`
  setup.log.info(
    `Grounding: ${options.what} of ${forLog(`${where.owner}/${where.repo}`, 100)}, ${mib} MB from GitHub (${files}${entries}).`
  )
  return read
}

/** Whether `dir` is the top of a git work tree whose `origin` is this repository, as actions/checkout leaves it. */
async function isCheckoutOf(dir: string, repository: string): Promise<boolean> {
  const git = (...args: string[]) => promisify(execFile)('git', ['-C', dir, ...args], { encoding: 'utf8' })
  try {
    const [top, origin] = await Promise.all([git('rev-parse', '--show-toplevel'), git('remote', 'get-url', 'origin')])
    const named = origin.stdout
      .trim()
      .replace(/\.git$/, '')
      .toLowerCase()
    return top.stdout.trim() !== '' && named.endsWith(`/${repository.toLowerCase()}`)
  } catch {
    return false
  }
}

function textFiles(count: number): string {
  return `${count.toLocaleString('en-US')} text file${count === 1 ? '' : 's'}`
}
