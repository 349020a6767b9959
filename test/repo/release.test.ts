// The release script, run in a throw-away repository: it tags vX.Y.Z and moves the major tag, or refuses.
import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT } from '../../sim/run-action.ts'

let repo = ''
afterEach(() => {
  rmSync(repo, { recursive: true, force: true })
})

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim()
}

function commitVersion(version: string, changelog = `## ${version}\n\n- a change\n`): void {
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'x', version }))
  writeFileSync(join(repo, 'CHANGELOG.md'), `# Changelog\n\n${changelog}`)
  git('add', '-A')
  git('commit', '-qm', `release ${version}`)
}

function release(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('bash', ['scripts/release.sh', ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      RELEASE_SKIP_BUNDLE: '1',
      PATH: `${join(process.execPath, '..')}:${process.env['PATH'] ?? ''}`
    }
  })
  return { status: run.status, output: run.stdout + run.stderr }
}

function setUp(): void {
  repo = mkdtempSync(join(tmpdir(), 'release-'))
  mkdirSync(join(repo, 'scripts'))
  copyFileSync(join(ROOT, 'scripts', 'release.sh'), join(repo, 'scripts', 'release.sh'))
  git('init', '-q')
  git('config', 'user.email', 'release@example.com')
  git('config', 'user.name', 'Release')
}

describe('scripts/release.sh', () => {
  it('tags vX.Y.Z and moves the major tag to each new release', () => {
    setUp()
    commitVersion('1.2.3')
    expect(release('1.2.3')).toMatchObject({
      status: 0,
      output: expect.stringContaining('Tagged v1.2.3 and moved v1 to it.') as string
    })
    const first = git('rev-parse', 'HEAD')
    commitVersion('1.3.0')
    expect(release('1.3.0').status).toBe(0)
    expect(git('rev-parse', 'v1.2.3^{commit}')).toBe(first)
    expect(git('rev-parse', 'v1^{commit}')).toBe(git('rev-parse', 'HEAD'))
    expect(git('rev-parse', 'v1.3.0^{commit}')).toBe(git('rev-parse', 'HEAD'))
  })

  it.each([
    [
      'a version package.json does not have',
      () => commitVersion('1.0.0'),
      '1.0.1',
      "package.json's version is not 1.0.1"
    ],
    [
      'a version the changelog does not describe',
      () => commitVersion('1.0.0', '## 0.9.0\n'),
      '1.0.0',
      "CHANGELOG.md has no '## 1.0.0' section"
    ],
    [
      'a dirty tree',
      () => {
        commitVersion('1.0.0')
        writeFileSync(join(repo, 'package.json'), '{}')
      },
      '1.0.0',
      'uncommitted changes'
    ],
    ['a malformed version', () => commitVersion('1.0.0'), 'v1.0', 'usage: scripts/release.sh X.Y.Z']
  ])('refuses %s', (_, prepare, version, message) => {
    setUp()
    prepare()
    const result = release(version)
    expect(result.status).not.toBe(0)
    expect(result.output).toContain(message)
    expect(git('tag')).toBe('')
  })

  it('refuses a version that is tagged already', () => {
    setUp()
    commitVersion('2.0.0')
    expect(release('2.0.0').status).toBe(0)
    expect(release('2.0.0')).toMatchObject({
      status: 1,
      output: expect.stringContaining('v2.0.0 exists already') as string
    })
  })
})
