// `node scripts/pin-docs.ts X.Y.Z`: after a release, points every `uses:` of this action in the README and docs/ at
// the release's commit, with its version in the comment, as the README recommends users pin it, and moves the other
// places that name the latest release (the pin's form, the release to clone and verify) to it. A release cannot name
// its own commit, so the pins follow it in the next commit.
import { execFileSync } from 'node:child_process'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ROOT } from '../sim/run-action.ts'

const version = process.argv[2] ?? ''
if (!/^\d+\.\d+\.\d+$/.test(version)) {
  console.error('usage: node scripts/pin-docs.ts X.Y.Z (after the tag vX.Y.Z exists)')
  process.exit(2)
}
const commit = execFileSync('git', ['rev-parse', `v${version}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim()
const PIN = /(your-org\/mintlify-agent-action@)[0-9a-f]{40} # v\d+\.\d+\.\d+/g
const LATEST = [/(@<40-character SHA> # )v\d+\.\d+\.\d+/g, /(git clone --depth 1 --branch )v\d+\.\d+\.\d+/g]
const pages = [
  'README.md',
  ...(await readdir(join(ROOT, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)
]
let changed = 0
for (const page of pages) {
  const path = join(ROOT, page)
  const text = await readFile(path, 'utf8')
  const pinned = LATEST.reduce(
    (moved, latest) => moved.replace(latest, `$1v${version}`),
    text.replace(PIN, `$1${commit} # v${version}`)
  )
  if (pinned !== text) {
    await writeFile(path, pinned)
    changed += 1
  }
}
console.log(`Pinned v${version} (${commit.slice(0, 12)}) in ${changed} of ${pages.length} pages.`)
