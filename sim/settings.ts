// The action's settings as readSettings makes them from inputs with action.yml's defaults, for the tests and the
// benchmark that call the action's modules directly.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { readSettings, type Settings } from '../src/inputs/settings.ts'

const ROOT = join(import.meta.dirname, '..')
const metadata = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>
}

/** The settings for these inputs, the others at action.yml's defaults (`github-token` a stand-in). */
export function settingsOf(inputs: Record<string, string> = {}): Settings {
  const given: Record<string, string> = {
    'project-id': 'docs',
    'api-key': 'mint_simulated_key',
    prompt: 'Document the change',
    'github-token': 'ghs_simulated_token'
  }
  const value = (name: string): string =>
    inputs[name] ?? given[name] ?? metadata.inputs[name]?.default?.replace('${{ github.token }}', '') ?? ''
  return readSettings({
    getInput: (name, options) => (options?.trimWhitespace === false ? value(name) : value(name).trim()),
    getBooleanInput: (name) => {
      const text = value(name).trim()
      if (/^(true|True|TRUE)$/.test(text)) return true
      if (/^(false|False|FALSE)$/.test(text)) return false
      throw new TypeError(`Input does not meet YAML 1.2 "Core Schema" specification: ${name}`)
    },
    getMultilineInput: (name) =>
      value(name)
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    setSecret: () => undefined,
    warning: () => undefined,
    notice: () => undefined
  })
}
