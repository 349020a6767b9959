import { describe, expect, it } from 'vitest'
import { readDocsChange } from '../../../src/after-job/docs-change.ts'
import { claimsOf } from '../../../src/after-job/grounding-verdict.ts'
import { addedFile } from './grounding-support.ts'

/** The claims a new page makes, as shown, with the words looked up for each. */
function claims(text: string, options: { languages?: string[]; ignore?: string; known?: string[] } = {}): string[] {
  const docs = readDocsChange([addedFile('docs/page.mdx', text)])
  const known = new Set(options.known ?? [])
  return claimsOf(docs, options.languages ?? ['javascript'], options.ignore ?? '', (word) => known.has(word)).map(
    (name) =>
      `${name.shown} [${name.parts
        .filter((part) => part.own !== true)
        .map((part) => part.word)
        .join(' ')}]`
  )
}

const fence = (language: string, code: string): string => `\`\`\`${language}\n${code}\n\`\`\``

describe('the names a docs change claims', () => {
  it('takes calls, member paths, flags, environment variables, keys and routes from inline code', () => {
    expect(
      claims(
        'Use `deleteMany()`, `client.users.list`, `--dry-run`, `API_TIMEOUT_MS`, `retryDelay: 100`, ' +
          '`GET /v1/users/{id}/posts` and `.opts()`.'
      )
    ).toEqual([
      'deleteMany() [deleteMany]',
      'client.users.list [users list]',
      '--dry-run [dry-run]',
      'API_TIMEOUT_MS [API_TIMEOUT_MS]',
      'retryDelay [retryDelay]',
      'GET /v1/users/{id}/posts [users posts]',
      '.opts() [opts]'
    ])
  })

  it('sets aside what an example makes up: its variables, parameters, functions, and the words of its strings', () => {
    const code = [
      'const client = new Mintlify({ apiKey: process.env.MINTLIFY_KEY })',
      'function show(user) {',
      '  return user.name',
      '}',
      "program.option('--pizza-type <type>')",
      'const { items } = await client.users.list()',
      'console.log(options.pizzaType, show(items))'
    ].join('\n')
    // The example reads MINTLIFY_KEY itself, and made up `--pizza-type` (so `options.pizzaType`) in a string.
    expect(claims(fence('ts', code))).toEqual([
      'Mintlify() [Mintlify]',
      'apiKey [apiKey]',
      'program.option() [option]',
      'items [items]',
      'client.users.list() [users list]'
    ])
  })

  it('claims a name imported by its own name from this code, not from a package the code never mentions', () => {
    const code =
      "import { deleteMany } from 'our-sdk'\nimport { Client } from 'other-service'\nimport fs from 'node:fs'"
    expect(claims(fence('js', code), { known: ['our'] })).toEqual([])
    expect(claims(fence('js', code), { known: ['our-sdk'] })).toEqual(['deleteMany [deleteMany]'])
    expect(claims(fence('js', "import { helper } from './helpers'"), { known: ['helpers'] })).toEqual([])
  })

  it('sets aside the members of a platform object, and of a value another package made', () => {
    const code = [
      "const express = require('express')",
      'const app = express()',
      "app.post('/login', (req, res) => res.send(req.body.username))",
      'fs.readFileSync(path)',
      'cluster.isMaster'
    ].join('\n')
    expect(claims(fence('js', code))).toEqual([])
    expect(claims(fence('js', code), { known: ['express'] })).toEqual([
      'app.post() [post]',
      'res.send() [send]',
      'req.body.username [username]'
    ])
  })

  it('reads command lines: the project program, its subcommand, long flags and variables; not other tools', () => {
    const commands = [
      '$ npm install --save-dev mint',
      '$ API_TOKEN=abc npx mint dev --port 3000 --no-open',
      '$ git push --force',
      'Usage: mint [--verbose]',
      '$ curl -X POST https://api.example.com/v1/jobs/{id}/cancel -H "Authorization: Bearer $TOKEN"'
    ].join('\n')
    expect(claims(fence('console', commands))).toEqual([
      'API_TOKEN [API_TOKEN]',
      'mint [mint]',
      'dev [dev]',
      '--port [port]',
      '--no-open [no-open]',
      '--verbose [verbose]',
      'TOKEN [TOKEN]',
      'POST /v1/jobs/{id}/cancel [jobs cancel]'
    ])
  })

  it("reads a configuration's keys, not its values", () => {
    expect(claims(fence('json', '{\n  "navigation": { "tabs": ["guides"] },\n  "apiTimeoutMs": 5000\n}'))).toEqual([
      'navigation [navigation]',
      'tabs [tabs]',
      'apiTimeoutMs [apiTimeoutMs]'
    ])
    expect(claims(fence('yaml', 'grounding: fix\ngrounding-rounds: 2 # at most 3'))).toEqual([
      'grounding [grounding]',
      'grounding-rounds [grounding-rounds]'
    ])
    expect(claims(fence('env', 'API_TIMEOUT_MS=5000'))).toEqual(['API_TIMEOUT_MS [API_TIMEOUT_MS]'])
  })

  it('reads no names from an inline span longer than a name a reader types, however it is shaped', () => {
    expect(claims(`Call \`${'x'.repeat(200)}.deleteMany()\` to clear it.`)).toEqual([])
    expect(claims(`Call \`client.deleteMany()\` to clear it.`)).toEqual(['client.deleteMany() [deleteMany]'])
  })

  it('takes no names from prose, paths, values and placeholders in code', () => {
    expect(
      claims(
        'See `src/index.ts`, `application/json`, `@scope/pkg`, `https://example.com/x`, `v1.2.3`, `on the command line`, ' +
          '`localhost`, `**/*.md`, `YOUR_API_KEY`, `myApp.start()`, `<token>`, `foo.bar()`, `REACT_APP_` and `OPTION_NAME`.'
      )
    ).toEqual([])
    expect(claims(fence('text', 'Output: deleteMany was called --verbose'))).toEqual(['--verbose [verbose]'])
    expect(claims(fence('mermaid', 'graph TD; deleteMany --> x'))).toEqual([])
  })

  it('sets aside the keywords and built-ins of the languages of the code and of the block', () => {
    const code = 'def main(self):\n    print(len(load_items()))\n    return None'
    expect(claims(fence('python', code), { languages: ['javascript'] })).toEqual(['load_items() [load_items]'])
    expect(claims('`Promise.all()`, `JSON.stringify`, `useEffect`, `true`', { languages: ['javascript'] })).toEqual([])
    expect(claims('`Promise.race()` and `useEffect()`', { languages: ['python'] })).toEqual([
      'Promise.race() [race]',
      'useEffect() [useEffect]'
    ])
  })

  it('sets aside the names grounding-ignore matches, as shown or by any word looked up', () => {
    const text = 'Use `client.internalThing()`, `--experimental-fast` and `LEGACY_MODE`.'
    expect(claims(text, { ignore: '# ours\n\n--experimental-*\ninternal*\nLEGACY_MOD?' })).toEqual([])
    expect(claims(text, { ignore: 'internal' })).toHaveLength(3)
  })

  it('claims each name once a file, at its first line', () => {
    const docs = readDocsChange([addedFile('docs/a.md', '`deleteMany()`\n\nAgain `deleteMany()`')])
    expect(claimsOf(docs, [], '', () => false).map((name) => [name.shown, name.line])).toEqual([['deleteMany()', 1]])
  })
})
