// Files whose diff tells the agent nothing about what to document: they are listed, but their diff is skipped.

export type GeneratedKind = 'lock file' | 'minified file' | 'source map' | 'build output' | 'vendored code'

// Lock files not named `*.lock` (yarn.lock, Cargo.lock, Gemfile.lock, composer.lock, poetry.lock, Pipfile.lock,
// uv.lock and flake.lock are).
const LOCK_FILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'bun.lockb',
  'go.sum',
  'packages.lock.json',
  'gradle.lockfile'
])

const FOLDERS = new Map<string, GeneratedKind>([
  ['dist', 'build output'],
  ['build', 'build output'],
  ['vendor', 'vendored code'],
  ['node_modules', 'vendored code']
])

/** What kind of generated file the path names, or undefined for a file someone wrote. */
export function generatedKind(path: string): GeneratedKind | undefined {
  const segments = path.split('/')
  const name = segments.pop() ?? ''
  if (LOCK_FILES.has(name) || name.toLowerCase().endsWith('.lock')) return 'lock file'
  if (/\.min\.(?:js|mjs|cjs|css)$/i.test(name)) return 'minified file'
  if (/\.map$/i.test(name)) return 'source map'
  for (const segment of segments) {
    const kind = FOLDERS.get(segment)
    if (kind) return kind
  }
  return undefined
}
