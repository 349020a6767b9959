// What the grounding check found, as each place tells it: the outputs, the verdict's sentence, the tracking comment's
// lines, the summary's row and the log. A name is text from the docs pull request: it is shown as code, never as a
// mention, a link's text of its own, HTML or a workflow command.
import type { Outputs } from '../runner/io.ts'
import { codeSpan, forLog, forMarkdown } from '../text/untrusted.ts'

/** A name found nowhere: as shown, the file and the line the change first adds it on, and a link to that line. */
export interface Finding {
  readonly name: string
  readonly path: string
  readonly line: number
  /** The line on GitHub, at the pull request's head. */
  readonly url?: string | undefined
}

/**
 * What the check came to: every name found (`passed`), names found nowhere (`ungrounded`), all of them corrected by the
 * agent after a follow-up (`fixed`), or why it could not be made (`unchecked`). `note`: why the rounds of `fix` ended
 * before the names were corrected.
 */
export type Grounding =
  | { readonly kind: 'passed' | 'fixed'; readonly names: number }
  | {
      readonly kind: 'ungrounded'
      readonly names: number
      readonly findings: readonly Finding[]
      readonly note?: string | undefined
    }
  | { readonly kind: 'unchecked'; readonly reason: string }

/** The most names the comment and the summary list; the rest are counted. */
export const NAMES_LISTED = 10

/** `grounding` and `ungrounded`, and their keys in `result`. */
export function groundingOutputs(grounding: Grounding | undefined): { outputs: Outputs; ungrounded: unknown } {
  if (grounding === undefined) return { outputs: { grounding: '', ungrounded: '' }, ungrounded: null }
  const findings = grounding.kind === 'ungrounded' ? grounding.findings : []
  const listed = findings.map(({ name, path, line }) => ({ name, path, line }))
  if (grounding.kind === 'unchecked') return { outputs: { grounding: 'unchecked', ungrounded: '' }, ungrounded: null }
  return { outputs: { grounding: grounding.kind, ungrounded: JSON.stringify(listed) }, ungrounded: listed }
}

/** `deleteMany()` (docs/api.mdx:12), for one line of the log. */
export function findingLine(finding: Finding): string {
  return `${forLog(finding.name, 120)} (${forLog(finding.path, 200)}:${finding.line})`
}

/** The verdict's sentence, after the job's own; empty when there is nothing to say. */
export function groundingSentence(grounding: Grounding | undefined): string {
  switch (grounding?.kind) {
    case undefined:
    case 'passed':
      return ''
    case 'fixed':
      return ' The agent corrected the code names its pull request had added that the code does not have.'
    case 'unchecked':
      return ` Its code names were not checked against the code: ${forLog(grounding.reason, 300)}.`
    case 'ungrounded': {
      const { findings } = grounding
      const shown = findings.slice(0, 3).map(findingLine).join(', ')
      const more = findings.length > 3 ? ` and ${findings.length - 3} more` : ''
      const note = grounding.note === undefined ? '' : ` ${forLog(grounding.note, 300)}`
      return ` Its pull request adds ${plural(findings.length, 'code name')} found nowhere in the code: ${shown}${more}.${note}`
    }
  }
}

/** The tracking comment's (and a pair's check run's) lines: each name as code, with a link to its line. */
export function groundingLines(grounding: Grounding | undefined): string[] {
  switch (grounding?.kind) {
    case undefined:
    case 'passed':
      return []
    case 'fixed':
      return ['', '✅ **Names checked against the code**: the agent corrected the names the code does not have.']
    case 'unchecked':
      return ['', `**Names not checked against the code**: ${codeSpan(forLog(grounding.reason, 300))}`]
    case 'ungrounded':
      return ['', `🔎 **${plural(grounding.findings.length, 'name')} not found in the code**:`, ...listed(grounding)]
  }
}

function listed(grounding: Grounding & { kind: 'ungrounded' }): string[] {
  const { findings } = grounding
  const lines = findings.slice(0, NAMES_LISTED).map((finding) => {
    const where = `${forLog(finding.path, 200)}:${finding.line}`
    const place =
      finding.url === undefined
        ? codeSpan(where)
        : `<a href="${forMarkdown(finding.url)}"><code>${forMarkdown(where, 300)}</code></a>`
    return `- ${codeSpan(forLog(finding.name, 120))} in ${place}`
  })
  if (findings.length > NAMES_LISTED) lines.push(`- … and ${findings.length - NAMES_LISTED} more`)
  if (grounding.note !== undefined) lines.push('', codeSpan(forLog(grounding.note, 300)))
  return lines
}

/** The summary's row. */
export function groundingRow(grounding: Grounding | undefined): [string, string][] {
  if (grounding === undefined) return []
  if (grounding.kind === 'unchecked') return [['Grounding', `unchecked: ${forMarkdown(grounding.reason, 300)}`]]
  if (grounding.kind !== 'ungrounded') return [['Grounding', `${grounding.kind} (${plural(grounding.names, 'name')})`]]
  const names = grounding.findings.slice(0, NAMES_LISTED).map((finding) => {
    const where = `${forMarkdown(finding.path, 200)}:${finding.line}`
    const place = finding.url === undefined ? where : `<a href="${forMarkdown(finding.url)}"><code>${where}</code></a>`
    return `<code>${forMarkdown(forLog(finding.name, 120))}</code> in ${place}`
  })
  const more =
    grounding.findings.length > NAMES_LISTED ? [`… and ${grounding.findings.length - NAMES_LISTED} more`] : []
  return [['Grounding', `ungrounded: ${[...names, ...more].join('<br>')}`]]
}

function plural(count: number, one: string): string {
  return `${count} ${count === 1 ? one : `${one}s`}`
}
