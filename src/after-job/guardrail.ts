// After the job, whatever the mode: with `docs-paths`, the agent's pull request held to the files it may touch.
import type { ChangedFile } from '../github/change.ts'
import { type Guardrail, namedFiles } from '../report/verdict.ts'
import type { WaitResult } from '../wait/job-wait.ts'
import type { StepSetup } from '../decide/decision.ts'

/**
 * With `docs-paths`: whether the agent's pull request touched only the files it may, read once the job completed with
 * one; undefined when there is nothing to check. Nothing is closed or changed by a violation.
 */
export async function checkGuardrail(setup: StepSetup, result: WaitResult): Promise<Guardrail | undefined> {
  const { settings, pulls, log } = setup
  const filter = settings.docsPaths
  const pr = result.job?.pr
  if (filter === undefined || result.kind !== 'completed' || pr?.kind !== 'link') return undefined
  if (pr.pullRequest === undefined) {
    return unchecked(log, `${pr.url.href} is not a GitHub pull request whose files can be read`)
  }
  if (pulls === undefined) return unchecked(log, 'GitHub could not be set up')
  const read = await pulls.files(pr.pullRequest)
  if (read.kind === 'warning') return unchecked(log, read.warning)
  const { files, complete } = read.value
  // A file moved into the docs counts where it came from too: moving src/billing.ts changes src/.
  const outside = [...new Set(files.flatMap(touched))].filter((path) => !filter.matches(path))
  if (outside.length === 0 && !complete) {
    return unchecked(
      log,
      `${pr.url.href} changes more files than GitHub lists (${files.length.toLocaleString('en-US')}), so the others cannot be checked.`
    )
  }
  if (outside.length === 0) {
    log.info(`docs-paths: the agent's pull request touched only docs-paths (${files.length} files).`)
    return { kind: 'passed' }
  }
  log.warning(`docs-paths: the agent's pull request touched files outside docs-paths: ${namedFiles(outside)}.`)
  return { kind: 'violated', files: outside }
}

/** The paths a changed file touches: its own, and the one it was renamed from. */
function touched(file: ChangedFile): string[] {
  return file.previousPath === undefined ? [file.path] : [file.previousPath, file.path]
}

function unchecked(log: StepSetup['log'], reason: string): Guardrail {
  log.warning(`docs-paths was not checked: ${reason}`)
  return { kind: 'unchecked', reason }
}
