import { describe, expect, it } from 'vitest'
import { redactor } from '../../../src/text/redact.ts'
import {
  firstLine,
  forLog,
  forMarkdown,
  httpUrl,
  inertToRunner,
  shownHttpUrl
} from '../../../src/text/untrusted-text.ts'

describe('inertToRunner', () => {
  it('breaks every ##[ so the runner finds no command in the line, and leaves the rest as it was', () => {
    const line = inertToRunner('a ##[error]x ##[set-output name=a;]b # [c] #[d]')
    expect(line).not.toContain('##[')
    expect(line.replaceAll('\u200b', '')).toBe('a ##[error]x ##[set-output name=a;]b # [c] #[d]')
  })
})

describe('forLog', () => {
  it('keeps API text on one line so it can never start a workflow command', () => {
    const text = forLog('model\n::error::pwned\r\n::add-mask::x\u2028::stop-commands::y')
    expect(text).not.toMatch(/[\n\r\u2028]/)
    expect(text).toBe('model ::error::pwned ::add-mask::x ::stop-commands::y')
  })

  it('shortens long text', () => {
    expect(forLog('x'.repeat(500))).toHaveLength(200)
  })
})

describe('forMarkdown', () => {
  it('escapes markup, table breaks and links', () => {
    expect(forMarkdown('<img src=x onerror=alert(1)> | [a](javascript:x) **b**')).toBe(
      '&lt;img src=x onerror=alert(1)&gt; &#124; &#91;a&#93;(javascript:x) &#42;&#42;b&#42;&#42;'
    )
  })
})

describe('httpUrl', () => {
  it.each(['https://github.com/a/b/pull/1', 'http://ghes.local/a/b/pull/2'])('accepts %s', (url) => {
    expect(httpUrl(url)?.href).toBe(url)
  })
  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'not a url', '', null, undefined])('refuses %j', (url) => {
    expect(httpUrl(url)).toBeUndefined()
  })
})

describe('shownHttpUrl', () => {
  const redact = redactor(['mint_attack_secret_0123'])
  it.each([
    ['a key split by a tab, which parsing removes', 'https://x.example/pull/1?from=mint_attac\tk_secret_0123'],
    ['a key split by a line break', 'https://x.example/pull/1?from=mint_attack_se\ncret_0123'],
    ['a host spelling the key in full-width letters', 'https://ｍｉｎｔ_attack_secret_0123.example/pull/1']
  ])('replaces a secret that parsing puts back together: %s', (_, text) => {
    const url = shownHttpUrl(text, redact)
    expect(url?.href).toContain('***')
    expect(url?.href.toLowerCase()).not.toContain('mint_attack_secret_0123')
  })

  it('keeps a URL without secrets as it parses', () => {
    expect(shownHttpUrl('https://acme-x.mintlify.app', redact)?.href).toBe('https://acme-x.mintlify.app/')
  })

  it.each([
    ['a user name that makes it look like another host', 'https://acme.mintlify.app@evil.example/'],
    ['a user name and password', 'https://admin:hunter2@evil.example/login'],
    ['a password alone', 'https://:pw@acme.mintlify.app/'],
    ['more than can be shown whole', `https://acme.mintlify.app/${'x'.repeat(500)}`]
  ])('shows no URL with %s', (_, text) => {
    expect(shownHttpUrl(text, redact)).toBeUndefined()
  })
})

describe('firstLine', () => {
  it("shows a prompt's first non-empty line, on one line", () => {
    expect(firstLine('\n\n  Fix the ::error:: page\r\nand more')).toBe('Fix the ::error:: page')
  })
})
