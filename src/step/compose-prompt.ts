import { loadChangeContext } from '../github/load-github.ts'
import type { Settings } from '../runner/settings/settings.ts'
import type { StepContext } from './step-context.ts'
import { GITHUB_DEADLINE_MS } from './time-budgets.ts'

/**
 * The prompt, and with `context: auto`, the "What changed" section after it (read within the GitHub deadline). The
 * section is quoted from others, so a key or token pasted into a pull request is not passed on to the agent: what it
 * quotes is redacted before it is shortened (change-context.ts), and the finished section once more, as the last
 * thing before it leaves. The prompt you wrote is sent as written.
 */
export async function composePrompt(prompt: string, settings: Settings, context: StepContext): Promise<string> {
  if (settings.context !== 'auto') return prompt
  const section = await loadChangeContext({
    token: settings.githubToken,
    repository: context.environment.repository,
    transport: context.transport,
    limit: settings.contextLimit,
    deadlineMs: GITHUB_DEADLINE_MS,
    log: context.runner.log
  })
  return section === '' ? prompt : `${prompt}\n\n${context.transport.redact(section)}`
}
