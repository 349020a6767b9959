// Preloaded with --import into a measured process: on exit it reports the process's peak RSS and the files it
// loaded (url and size), as one JSON line on stderr. It does the same for the action and for bare Node.
import { registerHooks } from 'node:module'
import { statSync, writeSync } from 'node:fs'
import process from 'node:process'
import { fileURLToPath } from 'node:url'

const loaded = new Map()
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) {
      try {
        loaded.set(url, statSync(fileURLToPath(url)).size)
      } catch {
        // not a file we can size: leave it out
      }
    }
    return nextLoad(url, context)
  }
})
process.on('exit', () => {
  const report = { peakRssKb: process.resourceUsage().maxRSS, loaded: Object.fromEntries(loaded) }
  writeSync(2, `\nPROBE ${JSON.stringify(report)}\n`)
})
