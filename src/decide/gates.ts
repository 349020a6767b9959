// Whether a change is worth a job, decided before any request to the admin API: who made it (never the Mintlify
// agent, nor the token's own identity: a generate, merge, generate loop), its labels, its files, its size; and whether
// the action's own cap on jobs an hour leaves one to spend.
import type { ChangedFile, ChangeFacts, EventChange } from '../github/change.ts'
import { countsAsChange, type Gates, MINTLIFY_BOT } from '../inputs/gate-settings.ts'
import { needsToken, type Settings } from '../inputs/settings.ts'
import { formatDuration, HOUR_MS } from '../text/duration.ts'
import { forLog } from '../text/untrusted.ts'
import type { Decision, StepSetup } from './decision.ts'

/**
 * Whether this event is worth a job, and whether one is left to spend: undefined to go on, or the decision that
 * nothing is sent. Only the gates read GitHub here, and only what `context: auto` would read anyway (one listing of
 * files), and who the token acts as when the change passes every other gate.
 */
export async function beforeSpending(setup: StepSetup): Promise<Decision | undefined> {
  const { settings, reads, log } = setup
  if (!settings.githubUse.gate || reads === undefined) return undefined
  const change = await reads.change()
  const gated = gatedChangeOf(change)
  if (gated !== undefined) {
    const reason =
      skipReason(settings.gates, gated, []) ??
      skipReason(settings.gates, gated, await tokenSelves(settings, setup, gated.author))
    if (reason !== undefined) {
      log.info(`Skipped: ${reason}. Nothing is sent to the agent (GitHub requests: ${change.calls}).`)
      return { kind: 'skipped', reason }
    }
    if (gated.filesCut === true && (settings.gates.paths || settings.gates.pathsIgnore)) {
      log.info(
        `GitHub listed only ${gated.files?.length ?? 0} of the files of ${gated.name}: paths and paths-ignore let it through, as a file left out may count.`
      )
    }
  }
  return jobCap(setup)
}

/** With `max-jobs-per-hour`: the decision that no job is left to spend this hour; undefined to go on. */
export async function jobCap(setup: StepSetup): Promise<Decision | undefined> {
  const { settings, reads } = setup
  if (!settings.githubUse.countJobs || reads === undefined) return undefined
  const since = setup.clock.date() - HOUR_MS
  const count = await reads.startsSince(since, { runId: setup.runId, step: setup.step })
  if (count.kind === 'uncounted') {
    // A cap that cannot be counted is not lifted: nothing is started, and the step says so.
    const reason = `max-jobs-per-hour (${settings.maxJobsPerHour ?? ''}): the jobs started in the last ${formatDuration(HOUR_MS)} could not be counted, ${count.why}. Nothing was sent to the agent; run the step again later, or remove max-jobs-per-hour to start jobs without it.`
    return { kind: 'error', reason }
  }
  const reached = capReached(settings, count.starts)
  return reached === undefined ? undefined : { kind: 'rate-limited', reason: reached }
}

/** What the gates look at in a change: one pull request, a push, an issue and its comment. */
export interface GatedChange {
  /** `pull request #12`, `the push`: how the reason names it. */
  readonly name: string
  /**
   * Who made what the event is about: on a comment, the comment's author (the action's own tracking comments start
   * runs too), else the change's; empty when unknown.
   */
  readonly author: string
  /** What the author made, as a reason names it, when it is not the change itself: `the comment on pull request #12`. */
  readonly authored?: string | undefined
  readonly labels: readonly string[]
  /** Its files; undefined when not known (not read, or no such thing for this event). */
  readonly files: readonly ChangedFile[] | undefined
  /** GitHub listed only some of its files: one it left out may count. */
  readonly filesCut?: boolean
  /** Lines added and removed; undefined when not known. */
  readonly changedLines: number | undefined
}

/** What the gates see of the change the event is about; undefined for an event about no change. */
export function gatedChangeOf(change: EventChange): GatedChange | undefined {
  const { facts, fetched } = change
  const files = fetched.files
  const listed = (files?.length ?? 0) + (fetched.filesUnusable ?? 0)
  const filesCut =
    fetched.filesCut === true ||
    (facts.kind === 'pull-request' && facts.changedFiles !== undefined && facts.changedFiles > listed)
  // Lines counted from some of the files are too few: no count at all lets the change through.
  const counted =
    !filesCut && files?.every((file) => file.additions !== undefined && file.deletions !== undefined)
      ? files.reduce((sum, file) => sum + (file.additions ?? 0) + (file.deletions ?? 0), 0)
      : undefined
  const gated = gatedFacts(facts, files, counted)
  return gated === undefined || !filesCut ? gated : { ...gated, filesCut }
}

function gatedFacts(
  facts: ChangeFacts,
  files: readonly ChangedFile[] | undefined,
  counted: number | undefined
): GatedChange | undefined {
  switch (facts.kind) {
    case 'pull-request': {
      const total =
        facts.additions !== undefined && facts.deletions !== undefined ? facts.additions + facts.deletions : counted
      const name = `pull request #${facts.number}`
      return { name, ...authorOf(facts, name), labels: facts.labels, files, changedLines: total }
    }
    case 'pull-request-update':
      return { name: `pull request #${facts.number}`, author: '', labels: [], files, changedLines: counted }
    case 'push':
      return { name: 'the push', author: pushAuthor(facts), labels: [], files, changedLines: counted }
    case 'issue': {
      // A comment on a pull request's conversation: the pull request's files, read as for the pull request itself.
      const pull = facts.isPullRequest
      const name = `${pull ? 'pull request' : 'issue'} #${facts.number}`
      const changed = pull ? { files, changedLines: counted } : { files: undefined, changedLines: undefined }
      return { name, ...authorOf(facts, name), labels: facts.labels, ...changed }
    }
    case 'release':
      return {
        name: `release ${facts.tag}`,
        author: facts.author,
        labels: [],
        files: undefined,
        changedLines: undefined
      }
    case 'none':
      return undefined
  }
}

/** Who made what the event is about: the comment that started the run, if any, else the change. */
function authorOf(
  facts: { readonly author: string; readonly comment?: { readonly author: string } | undefined },
  name: string
): Pick<GatedChange, 'author' | 'authored'> {
  const commenter = facts.comment?.author ?? ''
  return commenter === '' ? { author: facts.author } : { author: commenter, authored: `the comment on ${name}` }
}

/** A push is made by the author of its head commit (a merged pull request's squash commit keeps its author). */
function pushAuthor(facts: ChangeFacts & { kind: 'push' }): string {
  return facts.headCommit?.author ?? facts.pusher
}

/**
 * Why the change is worth no job; undefined when it passes every gate. `selves` are who the tokens act as, where
 * known: their own changes are skipped like the Mintlify agent's, whatever `skip-authors` says.
 */
export function skipReason(gates: Gates, change: GatedChange, selves: readonly TokenSelf[]): string | undefined {
  const author = change.author.toLowerCase()
  const made = change.authored ?? change.name
  const loop = author === '' ? undefined : loopOf(author, selves)
  if (loop !== undefined) return `${made} is by ${forLog(change.author, 80)}, ${loop} (loop prevention)`
  if (author !== '' && gates.skipAuthors.includes(author)) {
    return `${made} is by ${forLog(change.author, 80)}, in skip-authors`
  }
  const label = change.labels.find((name) => gates.skipLabels.includes(name.toLowerCase()))
  if (label !== undefined) return `${change.name} has the label ${forLog(label, 80)}, in skip-labels`
  const files = change.files
  if (files !== undefined && files.length > 0 && (gates.paths || gates.pathsIgnore) && !change.filesCut) {
    if (!files.some((file) => countsAsChange(gates, file.path) || movedFrom(gates, file))) {
      const which = gates.paths ? 'paths' : 'paths-ignore'
      return `no changed file of ${change.name} counts under ${which} (${files.length} ${plural(files.length, 'file')} changed)`
    }
  }
  if (gates.minChangedLines > 0 && change.changedLines !== undefined && change.changedLines < gates.minChangedLines) {
    return `${change.name} changed ${change.changedLines} ${plural(change.changedLines, 'line')}, fewer than min-changed-lines (${gates.minChangedLines})`
  }
  return undefined
}

/**
 * Who the author is when their change would make a loop: the Mintlify agent, or a token's own identity. An app whose
 * change may be a token's, when GitHub did not say who that token acts as, is taken for it: a loop spends a job on
 * every turn, a skip only this one.
 */
function loopOf(author: string, selves: readonly TokenSelf[]): string | undefined {
  if (author === MINTLIFY_BOT) return 'the Mintlify agent'
  const self = selves.find((token) => token.login !== undefined && sameLogin(author, token.login))
  if (self !== undefined) return self.input === 'github-token' ? "this workflow's token" : 'the identity of docs-token'
  const unknown = author.endsWith('[bot]') ? selves.find((token) => token.login === undefined) : undefined
  if (unknown === undefined) return undefined
  return `an app that may be the identity of ${unknown.input}, which GitHub did not name; run the step again to try once more`
}

/** Who a token acts as: the input that gave it, and its login; undefined when GitHub did not say. */
export interface TokenSelf {
  readonly input: 'github-token' | 'docs-token'
  readonly login: string | undefined
}

/**
 * Who `github-token` and `docs-token` act as, where a change by `author` may be one of theirs. For `github-token`,
 * GitHub is asked when the step uses the token anyway, when the author is an app (`name[bot]`, as an app token's own
 * changes are), or when the token may be a person's (any but an app's installation token, `ghs_…`), whose own changes
 * are that person's. For `docs-token`, only when the author is an app: a person's docs-token (a fine-grained token
 * made for the docs repository) writes only there, and its owner's code changes are the ones that need docs. A run
 * with none of these reasons sends no request for it.
 */
export async function tokenSelves(
  settings: Settings,
  logins: Pick<StepSetup, 'login' | 'docsLogin'> | undefined,
  author: string
): Promise<TokenSelf[]> {
  const app = author.toLowerCase().endsWith('[bot]')
  const asks = (token: string, used: boolean) => token !== '' && (used || app || !token.startsWith('ghs_'))
  if (logins === undefined) return []
  const own = asks(settings.githubToken, needsToken(settings.githubUse))
  const docs = settings.docsToken !== '' && app
  const [ownLogin, docsLogin] = await Promise.all([
    own ? logins.login() : undefined,
    docs ? logins.docsLogin() : undefined
  ])
  return [
    ...(own ? [{ input: 'github-token', login: ownLogin } as const] : []),
    ...(docs ? [{ input: 'docs-token', login: docsLogin } as const] : [])
  ]
}

/** A file renamed away from a counted path counts too: its old place in the docs may need the change. */
function movedFrom(gates: Gates, file: ChangedFile): boolean {
  return file.previousPath !== undefined && countsAsChange(gates, file.previousPath)
}

/** GraphQL names an app `name`, REST its author `name[bot]`: the two forms are one login. */
export function sameLogin(author: string, self: string | undefined): boolean {
  if (self === undefined || self === '') return false
  const me = self.toLowerCase()
  return author === me || author === `${me}[bot]` || `${author}[bot]` === me
}

function plural(count: number, one: string): string {
  return count === 1 ? one : `${one}s`
}

/**
 * Why `max-jobs-per-hour` leaves no job to spend, given the jobs started in the last hour by the action's own
 * records; undefined when there is room (or no cap).
 */
export function capReached(settings: Settings, started: number): string | undefined {
  const cap = settings.maxJobsPerHour
  if (cap === undefined || started < cap) return undefined
  return `max-jobs-per-hour (${cap}) is reached: this action started ${started} ${plural(started, 'job')} of project "${forLog(settings.projectId)}" in this repository in the last ${formatDuration(HOUR_MS)}, by its own records`
}
