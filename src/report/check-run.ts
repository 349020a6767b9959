// The check run on the code change that asked for docs (`check`): in progress while the agent works, then success,
// neutral, failure or cancelled, so branch protection can require "docs handled". Its summary is what the tracking
// comment says. A check that cannot be made is one warning, never the outcome.
import type { ChangeFacts } from '../github/change.ts'
import type { CheckState, PullOperations } from '../github/pulls.ts'
import type { Logger, OutputWriter } from '../runner/io.ts'
import { headingOf } from '../text/outcome.ts'
import type { StepResult, Verdict } from './verdict.ts'

export interface CheckTarget {
  readonly name: string
  /** The head commit the run describes. */
  readonly headSha: string
  /** Where "Details" leads: the workflow run. */
  readonly detailsUrl: string | undefined
}

/** Where a check run goes: a commit, or the head of a pull request, to read from GitHub. */
export type CheckPlace =
  { readonly kind: 'commit'; readonly sha: string } | { readonly kind: 'pull request'; readonly number: number }

/**
 * The head commit the run describes: a pull request's (read from GitHub for a comment in its conversation, whose
 * event does not name it), a push's last commit, or else the run's own commit (`GITHUB_SHA`).
 */
export function checkPlace(facts: ChangeFacts | undefined, runSha: string): CheckPlace {
  if (facts?.kind === 'pull-request') return { kind: 'commit', sha: facts.headSha }
  if (facts?.kind === 'push') return { kind: 'commit', sha: facts.after }
  if (facts?.kind === 'issue' && facts.isPullRequest) return { kind: 'pull request', number: facts.number }
  return { kind: 'commit', sha: runSha }
}

export class CheckRun {
  readonly #pulls: Pick<PullOperations, 'startCheck' | 'updateCheck'>
  readonly #target: CheckTarget
  readonly #log: Pick<Logger, 'info' | 'warning'>
  readonly #outputs: OutputWriter
  #made: Promise<number | undefined> | undefined
  #failed = false

  constructor(
    pulls: Pick<PullOperations, 'startCheck' | 'updateCheck'>,
    target: CheckTarget,
    log: Pick<Logger, 'info' | 'warning'>,
    outputs: OutputWriter
  ) {
    this.#pulls = pulls
    this.#target = target
    this.#log = log
    this.#outputs = outputs
  }

  /** Creates the check, in progress, in the background. */
  start(summary: string): void {
    const state = {
      status: 'in_progress',
      title: headingOf('active'),
      summary,
      detailsUrl: this.#target.detailsUrl
    } as const
    const { name, headSha } = this.#target
    this.#made ??= this.#pulls.startCheck(name, headSha, state).then((made) => {
      if (made.kind === 'warning') {
        this.#warn(made.warning)
        return undefined
      }
      if (made.value.url) this.#outputs.set('check-url', made.value.url)
      this.#log.info(`Check run "${name}" on ${headSha.slice(0, 7)}: in progress.`)
      return made.value.id
    })
  }

  /** Ends the check with the conclusion the step's end calls for; made now when it was never started. */
  async end(result: StepResult, verdict: Verdict, summary: string): Promise<void> {
    const state: CheckState = {
      status: 'completed',
      conclusion: conclusionOf(result, verdict),
      title: headingOf(result.kind),
      summary,
      detailsUrl: this.#target.detailsUrl
    }
    const id = await this.#made
    if (this.#failed) return
    if (id === undefined) {
      const { name, headSha } = this.#target
      const made = await this.#pulls.startCheck(name, headSha, state)
      if (made.kind === 'warning') {
        this.#warn(made.warning)
        return
      }
      if (made.value.url) this.#outputs.set('check-url', made.value.url)
    } else {
      const updated = await this.#pulls.updateCheck(id, state, result.kind === 'cancelled')
      if (updated.kind === 'warning') {
        this.#warn(updated.warning)
        return
      }
    }
    this.#log.info(`Check run "${this.#target.name}": ${state.conclusion ?? 'completed'}.`)
  }

  #warn(warning: string): void {
    this.#failed = true
    this.#log.warning(`${warning} No check run is kept for this change.`)
  }
}

/** Failure when the step fails; cancelled on a cancel; success for a docs pull request; neutral for anything else. */
function conclusionOf(result: StepResult, verdict: Verdict): NonNullable<CheckState['conclusion']> {
  if (result.kind === 'cancelled') return 'cancelled'
  if (verdict.fails) return 'failure'
  return result.kind === 'completed' && result.job?.pr.kind === 'link' ? 'success' : 'neutral'
}
