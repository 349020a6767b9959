import { describe, expect, it } from 'vitest'
import { generatedKind } from '../../../src/context/generated-files.ts'

describe('generatedKind', () => {
  it.each([
    ['package-lock.json', 'lock file'],
    ['web/yarn.lock', 'lock file'],
    ['pnpm-lock.yaml', 'lock file'],
    ['npm-shrinkwrap.json', 'lock file'],
    ['Cargo.lock', 'lock file'],
    ['Gemfile.lock', 'lock file'],
    ['composer.lock', 'lock file'],
    ['poetry.lock', 'lock file'],
    ['Pipfile.lock', 'lock file'],
    ['go.sum', 'lock file'],
    ['flake.lock', 'lock file'],
    ['assets/app.min.js', 'minified file'],
    ['assets/site.MIN.CSS', 'minified file'],
    ['dist/index.js.map', 'source map'],
    ['dist/index.js', 'build output'],
    ['packages/ui/build/main.js', 'build output'],
    ['vendor/github.com/x/y.go', 'vendored code'],
    ['node_modules/left-pad/index.js', 'vendored code']
  ])('%s is a %s', (path, kind) => {
    expect(generatedKind(path)).toBe(kind)
  })

  it.each([
    'src/client.ts',
    'docs/build.md',
    'src/distance.ts',
    'scripts/build-docs.ts',
    'lockfile.md',
    'src/dist.ts',
    'package.json',
    'go.mod'
  ])('%s is written by someone', (path) => {
    expect(generatedKind(path)).toBeUndefined()
  })
})
