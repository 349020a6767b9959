import { describe, expect, it } from 'vitest'
import { isAuthor, isInstallationToken, ownLogin } from '../../../src/github/octokit.ts'

describe('isInstallationToken', () => {
  it.each([
    ['ghs_16C7e42F292c6912E7710c838347Ae178B4a', true],
    [`v1.${'0a'.repeat(20)}`, true],
    ['ghp_16C7e42F292c6912E7710c838347Ae178B4a', false],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnop', false],
    ['gho_16C7e42F292c6912E7710c838347Ae178B4a', false],
    ['ghu_16C7e42F292c6912E7710c838347Ae178B4a', false],
    ['', false]
  ])('%s: %s', (token, installation) => {
    expect(isInstallationToken(token)).toBe(installation)
  })
})

describe('ownLogin', () => {
  it.each([
    // GraphQL names an app `name`; what an installation token writes is by `name[bot]`.
    ['acme-docs', true, 'acme-docs[bot]'],
    ['acme-docs[bot]', true, 'acme-docs[bot]'],
    ['github-actions[bot]', true, 'github-actions[bot]'],
    // A person's token writes as the person.
    ['mona', false, 'mona'],
    ['acme-docs[bot]', false, 'acme-docs[bot]']
  ])('%s with an installation token %s: %s', (viewer, installation, login) => {
    expect(ownLogin(viewer, installation)).toBe(login)
  })
})

describe('isAuthor', () => {
  const user = (login: string) => ({ login, type: 'User' })
  const bot = (login: string) => ({ login, type: 'Bot' })
  it.each([
    ['the app, as REST names it', bot('acme-docs[bot]'), 'acme-docs[bot]', true],
    ["a user who registered the app's name", user('acme-docs'), 'acme-docs[bot]', false],
    ['a user called as the app, to the letter', user('acme-docs[bot]'), 'acme-docs[bot]', false],
    ['the person whose token it is', user('mona'), 'mona', true],
    ["an app named after the person's login", bot('mona[bot]'), 'mona', false],
    ['a bot answered with the login of a person', bot('mona'), 'mona', false],
    ['an author GitHub gave no type', { login: 'mona' }, 'mona', false],
    ['someone else', user('mallory'), 'mona', false],
    ['no author (a deleted account)', null, 'mona', false]
  ])('%s: %s', (_what, author, login, own) => {
    expect(isAuthor(author, login)).toBe(own)
  })
})
