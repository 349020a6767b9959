// The release script, run in a throw-away repository with an origin of its own: it tags vX.Y.Z (and pushes the tag
// with --push), its dry run checks the same and creates nothing, and it refuses what is not ready. The major tag is
// the release workflow's to move, never the script's. `npm run bundle` is a stand-in that builds dist/index.js from
// src/index.js, so the check that dist/ is the build runs for real.
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ROOT } from '../../sim/run-action.ts'

let base = ''
let repo = ''
let origin = ''
afterEach(() => {
  rmSync(base, { recursive: true, force: true })
})

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim()
}

function commitVersion(version: string, changelog = `## ${version}\n\n- a change\n`, source = 'built'): void {
  writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'x', version }))
  writeFileSync(join(repo, 'CHANGELOG.md'), `# Changelog\n\n${changelog}`)
  writeFileSync(join(repo, 'src', 'index.js'), source)
  writeFileSync(join(repo, 'dist', 'index.js'), source)
  git('add', '-A')
  git('commit', '-qm', `release ${version}`)
}

function release(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync('bash', ['scripts/release.sh', ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${join(base, 'bin')}:${join(process.execPath, '..')}:${process.env['PATH'] ?? ''}` }
  })
  return { status: run.status, output: run.stdout + run.stderr }
}

const tags = (cwd = repo): string => execFileSync('git', ['tag'], { cwd, encoding: 'utf8' }).trim()

function setUp(): void {
  base = mkdtempSync(join(tmpdir(), 'release-'))
  repo = join(base, 'repo')
  origin = join(base, 'origin.git')
  for (const directory of ['bin', 'repo/scripts', 'repo/src', 'repo/dist'])
    mkdirSync(join(base, directory), { recursive: true })
  // The stand-in for npm: `npm run -s bundle` builds dist/ from src/.
  writeFileSync(
    join(base, 'bin', 'npm'),
    '#!/bin/sh\n[ "$*" = "run -s bundle" ] || exit 3\ncp src/index.js dist/index.js\n'
  )
  chmodSync(join(base, 'bin', 'npm'), 0o755)
  for (const script of ['release.sh', 'release-notes.sh'])
    copyFileSync(join(ROOT, 'scripts', script), join(repo, 'scripts', script))
  execFileSync('git', ['init', '-q', '--bare', origin])
  git('init', '-q')
  git('config', 'user.email', 'release@example.com')
  git('config', 'user.name', 'Release')
  git('remote', 'add', 'origin', origin)
}

describe('scripts/release.sh', () => {
  it('tags vX.Y.Z on HEAD, leaves the major tag to the workflow, and prints the push command', () => {
    setUp()
    commitVersion('1.2.3')
    const result = release('1.2.3')
    expect(result.status).toBe(0)
    expect(result.output).toContain('Tagged v1.2.3 on')
    expect(result.output).toContain('Push it to start the release: git push origin v1.2.3')
    expect(git('rev-parse', 'v1.2.3^{commit}')).toBe(git('rev-parse', 'HEAD'))
    expect(git('cat-file', '-t', 'v1.2.3')).toBe('tag')
    expect(tags()).toBe('v1.2.3')
    expect(tags(origin)).toBe('')
  })

  it('pushes the tag to origin with --push, and only that tag', () => {
    setUp()
    commitVersion('1.2.3')
    expect(release('1.2.3', '--push').status).toBe(0)
    expect(tags(origin)).toBe('v1.2.3')
    expect(execFileSync('git', ['rev-parse', 'v1.2.3^{commit}'], { cwd: origin, encoding: 'utf8' }).trim()).toBe(
      git('rev-parse', 'HEAD')
    )
    commitVersion('1.3.0')
    expect(release('1.3.0', '--push').status).toBe(0)
    expect(tags(origin)).toBe('v1.2.3\nv1.3.0')
  })

  it('checks everything in a dry run and says what it would do, creating and pushing nothing', () => {
    setUp()
    commitVersion('1.2.3', '## 1.2.3\n\n- a change\n- another\n\n## 1.2.2\n\n- older\n')
    const result = release('1.2.3', '--dry-run')
    expect(result.status).toBe(0)
    for (const check of [
      'ok: the working tree is clean',
      "ok: package.json's version is 1.2.3",
      "ok: CHANGELOG.md has a '## 1.2.3' section",
      'ok: v1.2.3 is not taken, here or on origin',
      'ok: dist/ is the build of src/',
      'Dry run: nothing was created or pushed.',
      `- create the annotated tag v1.2.3 on ${git('log', '-1', '--format=%h %s')}`,
      '- push it with: git push origin v1.2.3',
      'moves v1 to it if it is the newest v1 release',
      'Notes of v1.2.3:\n- a change\n- another\n'
    ])
      expect(result.output).toContain(check)
    expect(result.output).not.toContain('older')
    expect(tags()).toBe('')
    expect(tags(origin)).toBe('')
    expect(git('status', '--porcelain')).toBe('')
  })

  describe.each([
    { name: 'tagging', mode: [] },
    { name: '--dry-run', mode: ['--dry-run'] },
    { name: '--push', mode: ['--push'] }
  ])('$name', ({ mode }: { mode: string[] }) => {
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
        'a version whose changelog section is empty',
        () => commitVersion('1.0.0', '## 1.0.0\n\n## 0.9.0\n\n- older\n'),
        '1.0.0',
        "CHANGELOG.md's '## 1.0.0' section is empty"
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
      [
        'a dist/ that is not the build of src/',
        () => {
          commitVersion('1.0.0')
          writeFileSync(join(repo, 'src', 'index.js'), 'changed')
          git('commit', '-qam', 'src/ without dist/')
        },
        '1.0.0',
        "dist/ is not the build of src/: run 'npm run bundle' and commit it"
      ],
      [
        'a version tagged on origin already',
        () => {
          commitVersion('1.0.0')
          git('tag', 'v1.0.0')
          git('push', '-q', 'origin', 'v1.0.0')
          git('tag', '-d', 'v1.0.0')
        },
        '1.0.0',
        'v1.0.0 exists already on origin'
      ],
      ['a malformed version', () => commitVersion('1.0.0'), 'v1.0', 'usage: scripts/release.sh X.Y.Z']
    ])('refuses %s', (_, prepare, version, message) => {
      setUp()
      prepare()
      const before = tags(origin)
      const result = release(version, ...mode)
      expect(result.status).not.toBe(0)
      expect(result.output).toContain(message)
      expect(tags()).toBe('')
      expect(tags(origin)).toBe(before)
    })
  })

  it('refuses a version that is tagged already', () => {
    setUp()
    commitVersion('2.0.0')
    expect(release('2.0.0').status).toBe(0)
    for (const mode of [[], ['--dry-run'], ['--push']])
      expect(release('2.0.0', ...mode)).toMatchObject({
        status: 1,
        output: expect.stringContaining('v2.0.0 exists already') as string
      })
  })

  it('refuses an unknown option', () => {
    setUp()
    commitVersion('1.0.0')
    expect(release('1.0.0', '--force')).toMatchObject({
      status: 2,
      output: expect.stringContaining('usage: scripts/release.sh X.Y.Z [--dry-run | --push]') as string
    })
    expect(tags()).toBe('')
  })
})
