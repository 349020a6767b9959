// Shows a step's raw stdout the way the Actions log page does: masked values as ***, annotations labelled,
// debug lines hidden unless asked for, and other workflow commands (which the runner consumes) left out.

/** Undoes the escaping of a workflow command's data (`%25`, `%0D`, `%0A`). */
export function decodeCommandData(text: string): string {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
}

export function renderRunnerLog(stdout: string, { debug = false } = {}): string {
  const masks: string[] = []
  const mask = (text: string): string => masks.reduce((masked, secret) => masked.split(secret).join('***'), text)
  const shown: string[] = []
  for (const line of stdout.split('\n')) {
    const command = /^::([\w-]+)(?: [^:]*)?::(.*)$/.exec(line)
    if (!command) {
      shown.push(mask(line))
      continue
    }
    const [, name, message = ''] = command
    const text = mask(decodeCommandData(message))
    if (name === 'add-mask') masks.push(decodeCommandData(message))
    else if (name === 'error') shown.push(`Error: ${text}`)
    else if (name === 'warning') shown.push(`Warning: ${text}`)
    else if (name === 'debug' && debug) shown.push(`##[debug]${text}`)
  }
  return shown.join('\n').trimEnd()
}

/** The job summary's HTML as plain text: the heading, the message, then one `name: value` line per row. */
export function renderSummaryText(html: string): string {
  const text = html
    .replace(/<h3>(.*?)<\/h3>/g, '$1\n')
    .replace(/<p>(.*?)<\/p>/g, '$1\n')
    .replace(/<tr><th>(.*?)<\/th><td>(.*?)<\/td><\/tr>/g, '  $1: $2\n')
    .replace(/<li>(.*?)<\/li>/g, '  - $1\n')
    .replace(/<[^>]+>/g, '')
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&')
    .trimEnd()
}
