// The runner's side of the step: inputs, log commands, outputs and the summary file.
//
// Written here rather than imported from @actions/core: that package's entry also loads its OIDC client, which
// loads all of undici, and its exports allow no narrower import. That costs every run ~130 ms and ~20 MB before
// the first poll (see the benchmark). What is used here is small and specified by the runner's documented
// formats: workflow commands on stdout, and `name<<delimiter` blocks in the GITHUB_OUTPUT file.
import { randomUUID } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { EOL } from 'node:os'

/** `%`, CR and LF would end or corrupt a command; the runner decodes these escapes. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function issue(command: string, message: string): void {
  process.stdout.write(`::${command}::${escapeData(message)}${EOL}`)
}

/** An input as the runner passes it (`INPUT_<NAME>`, dashes kept), trimmed; empty when unset. */
export function getInput(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim()
}

/** From now on the runner replaces this value with `***` in the log. */
export function setSecret(secret: string): void {
  issue('add-mask', secret)
}

export function info(message: string): void {
  process.stdout.write(message + EOL)
}

/** Shown only when step debug logging is on. */
export function debug(message: string): void {
  issue('debug', message)
}

/** A warning annotation. */
export function warning(message: string): void {
  issue('warning', message)
}

/** An error annotation, and the step fails. */
export function setFailed(message: string): void {
  process.exitCode = 1
  issue('error', message)
}

/** A step output, in the GITHUB_OUTPUT file under a random delimiter so no value can forge another output. */
export function setOutput(name: string, value: string): void {
  const file = process.env['GITHUB_OUTPUT']
  if (!file) {
    process.stdout.write(`${EOL}::set-output name=${name}::${escapeData(value)}${EOL}`)
    return
  }
  const delimiter = `ghadelimiter_${randomUUID()}`
  appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8')
}

/** Appends HTML or Markdown to the job summary; throws when the runner gave no summary file. */
export function appendSummary(text: string): void {
  const file = process.env['GITHUB_STEP_SUMMARY']
  if (!file) throw new Error('GITHUB_STEP_SUMMARY is not set, so there is no job summary to write to')
  appendFileSync(file, text + EOL, 'utf8')
}
