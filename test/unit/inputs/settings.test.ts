import * as core from '@actions/core'
import { afterAll, describe, expect, it } from 'vitest'
import { readActionMetadata } from '../../../sim/run-action.ts'
import { INPUT_DEFAULTS } from '../../../src/inputs/input-reader.ts'
import { eventProblem } from '../../../src/inputs/mode-settings.ts'
import { InputError, readSettings, type Settings } from '../../../src/inputs/settings.ts'

const metadata = await readActionMetadata()
const DEFAULTS = Object.fromEntries(
  Object.entries(metadata.inputs).map(([name, input]) => [
    name,
    input.default?.replace('${{ github.token }}', 'ghs_token') ?? ''
  ])
)

interface Read {
  settings?: Settings
  error?: string
  secrets: string[]
  warnings: string[]
  notices: string[]
}

const clearInputs = () => {
  for (const name of Object.keys(process.env)) if (name.startsWith('INPUT_')) Reflect.deleteProperty(process.env, name)
}
// The unit files share a process: leave no input behind for the next file.
afterAll(clearInputs)

/** Reads the inputs with the real `@actions/core`, from INPUT_* variables as the runner sets them. */
function read(inputs: Record<string, string>): Read {
  const all: Record<string, string> = {
    ...DEFAULTS,
    'project-id': 'proj',
    'job-id': 'job-1',
    'api-key': 'mint_abc',
    ...inputs
  }
  clearInputs()
  for (const [name, value] of Object.entries(all)) process.env[`INPUT_${name.toUpperCase()}`] = value
  const secrets: string[] = []
  const warnings: string[] = []
  const notices: string[] = []
  try {
    const settings = readSettings({
      getInput: core.getInput,
      getBooleanInput: core.getBooleanInput,
      getMultilineInput: core.getMultilineInput,
      setSecret: (secret) => secrets.push(secret),
      warning: (message) => warnings.push(String(message)),
      notice: (message) => notices.push(String(message))
    })
    return { settings, secrets, warnings, notices }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return { error: error.message, secrets, warnings, notices }
  }
}

describe('readSettings', () => {
  it('reads action.yml defaults into a typed settings object', () => {
    const { settings } = read({})
    expect(settings).toMatchObject({
      projectId: 'proj',
      jobId: 'job-1',
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 5000,
      maxPollIntervalMs: 30_000,
      requestTimeoutMs: 30_000,
      comment: false,
      issueNumber: undefined
    })
    expect(settings?.baseUrl.href).toBe('https://api.mintlify.com/')
    expect(settings).toMatchObject({ jobId: 'job-1', prompt: undefined, wait: true, followUp: false })
    expect([...(settings?.failOn ?? [])]).toEqual(['failed', 'timeout', 'preview-failed', 'guardrail'])
    expect(settings?.preview).toBe(false)
    expect(settings).toMatchObject({ context: 'none', contextLimit: 20_000 })
  })

  it('reads an input given empty as its default, as the toolkit does, but for fail-on, where empty means none', () => {
    const empty = Object.fromEntries(Object.keys(INPUT_DEFAULTS).map((name) => [name, '']))
    const { settings, error } = read({ ...empty, 'fail-on': '' })
    expect(error).toBeUndefined()
    expect(settings).toEqual({ ...read({}).settings, failOn: new Set() })
  })

  it("holds the reader's defaults to action.yml's, for every input with a literal default but the lists", () => {
    // fail-on, skip-labels and skip-authors given empty are empty lists: no outcome fails, no label or author skips.
    const lists = ['fail-on', 'skip-labels', 'skip-authors']
    const literal = Object.entries(metadata.inputs).filter(
      ([name, input]) => input.default !== undefined && !input.default.includes('${{') && !lists.includes(name)
    )
    expect(INPUT_DEFAULTS).toEqual(Object.fromEntries(literal.map(([name, input]) => [name, input.default])))
  })

  it('says that job-id wins over follow-up: true', () => {
    const { settings, notices } = read({ 'follow-up': 'true', prompt: 'More' })
    expect(settings).toMatchObject({ jobId: 'job-1', followUp: true })
    expect(notices).toContain('Input "follow-up" is true, and "job-id" names the job: the prompt goes to that job.')
  })

  it('hints that an empty project-id comes from a variable not set here', () => {
    expect(read({ 'project-id': '' }).error).toContain(
      'Empty means the variable it comes from (such as vars.MINTLIFY_PROJECT_ID) is not set for this repository or environment'
    )
  })

  it('suggests no duration under the 1s that most of them need', () => {
    expect(read({ 'poll-interval': 'often' }).error).toBe(
      'Input "poll-interval" must be a positive duration such as 10s, 5m, 1h, 1m 30s or a number of seconds; got "often".'
    )
  })

  it('masks the key the moment it is read, and the GitHub token too', () => {
    expect(read({}).secrets).toEqual(['mint_abc', 'ghs_token'])
  })

  it('masks the key even when another input is invalid', () => {
    const { secrets, error } = read({ timeout: 'forever' })
    expect(error).toBeDefined()
    expect(secrets).toContain('mint_abc')
  })

  it('refuses a key passed as project-id, masking it, without the warning that points the other way', () => {
    const { error, secrets, warnings } = read({ 'project-id': 'mint_swapped_key_0123', 'api-key': 'proj_12345' })
    expect(error).toContain('Input "project-id" holds an admin API key (it starts with "mint_"), so it is masked')
    expect(secrets).toContain('mint_swapped_key_0123')
    expect(warnings).toEqual([])
  })

  it.each([
    ['mint_dsc_0123456789abcdef', 'an assistant API key (it starts with "mint_dsc_")'],
    ['mint_us_0123456789abcdef', 'an Index API key (it starts with "mint_us_")']
  ])('refuses the api-key %s, naming the kind of key, and masks it', (key, kind) => {
    const { error, secrets } = read({ 'api-key': key })
    expect(error).toContain(
      `Input "api-key" holds ${kind}, not an admin API key, so nothing is sent: the admin API refuses it. Make an admin API key on the dashboard's API keys page, under organization settings`
    )
    expect(secrets).toContain(key)
  })

  it('names every missing required input at once', () => {
    const { error } = read({ 'project-id': '', 'job-id': '', 'api-key': '', prompt: '' })
    expect(error).toContain('Input "api-key" is required')
    expect(error).toContain('Input "project-id" is required')
    expect(error).toContain('Input "prompt" or "job-id" is required')
  })

  it("says why a key can be empty: a secret not set, or a run GitHub gives no secrets, as a fork's", () => {
    const { error } = read({ 'api-key': '' })
    expect(error).toContain('the secret is not set for this repository or environment')
    expect(error).toContain('as for a pull request from a fork or one opened by Dependabot')
  })

  it('warns that a prompt of whitespace alone sends no follow-up, and only waits for job-id', () => {
    const { warnings, settings } = read({ prompt: ' \n\t ' })
    expect(settings?.prompt).toBeUndefined()
    expect(warnings).toEqual([
      'Input "prompt" holds only whitespace, so no follow-up is sent: the step only waits for "job-id".'
    ])
    expect(read({}).warnings).toEqual([])
  })

  it('warns when the key does not look like an admin key, without echoing it', () => {
    const { warnings, settings } = read({ 'api-key': 'proj' })
    expect(settings).toBeDefined()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('"mint_"')
    expect(warnings[0]).toContain('equals project-id')
    expect(warnings[0]).not.toContain('"proj"')
  })

  it.each([
    ['timeout', '10 minutes', 'Input "timeout" must be a positive duration'],
    ['poll-interval', '0s', 'Input "poll-interval" must be a positive duration'],
    ['request-timeout', 'soon', 'Input "request-timeout" must be a positive duration'],
    ['max-poll-interval', '-1', 'Input "max-poll-interval" must be a positive duration'],
    ['fail-on', 'failed,crashed', 'Input "fail-on" accepts completed, archived, failed, timeout'],
    ['comment', 'yes', 'Input "comment" must be true or false'],
    ['issue-number', '12a', 'Input "issue-number" must be a positive whole number'],
    ['issue-number', '0', 'Input "issue-number" must be a positive whole number'],
    ['base-url', 'api.mintlify.com', 'Input "base-url" must be an absolute URL'],
    ['base-url', 'http://api.mintlify.com', 'must use https://'],
    ['base-url', 'ftp://api.mintlify.com', 'must use https://'],
    ['base-url', 'https://user:pw@api.mintlify.com', 'must not contain credentials'],
    ['base-url', 'https://api.mintlify.com/?x=1', 'must not have a query'],
    ['job-id', '..', 'Input "job-id" must be an id'],
    ['project-id', 'a b', 'Input "project-id" must not contain spaces'],
    // What careless hands wrote: each is an input error, never read as something else.
    ['timeout', '5 m', 'Input "timeout"'],
    ['timeout', '1e3', 'Input "timeout"'],
    ['timeout', '0', 'Input "timeout"'],
    ['poll-interval', '0.1ms', 'Input "poll-interval"'],
    ['fail-on', 'failed;timeout', 'Input "fail-on"'],
    ['fail-on', 'error', 'Input "fail-on"'],
    ['context', 'true', 'Input "context"'],
    ['context-limit', '1e4', 'Input "context-limit"'],
    ['context-limit', '20,000', 'Input "context-limit"'],
    ['context-limit', '499', 'Input "context-limit"'],
    ['base-url', 'https://api.mintlify.com/v2/', 'Input "base-url"'],
    ['base-url', 'http://127.0.0.1.nip.io', 'Input "base-url"'],
    ['issue-number', '12.0', 'Input "issue-number"'],
    ['issue-number', '０１２', 'Input "issue-number"'],
    ['wait', 'yes', 'Input "wait"'],
    ['project-id', '..', 'Input "project-id"'],
    ['grounding', 'strict', 'Input "grounding" must be off, report, fix; got "strict"'],
    ['grounding-rounds', '4', 'Input "grounding-rounds" must be a whole number of follow-ups from 1 to 3; got "4"'],
    ['grounding-rounds', '0', 'Input "grounding-rounds" must be a whole number of follow-ups from 1 to 3']
  ])('refuses %s = %j, naming the input', (name, value, message) => {
    expect(read({ [name]: value }).error).toContain(message)
  })

  it.each([
    ['poll-interval', { 'poll-interval': '1000h', 'max-poll-interval': '1000h' }],
    ['timeout', { timeout: '600h' }],
    ['max-poll-interval', { 'max-poll-interval': '1000h' }],
    ['request-timeout', { 'request-timeout': '9999h' }]
  ])('refuses a %s longer than a timer can hold, so nothing polls faster than asked', (name, inputs) => {
    const { error } = read(inputs)
    expect(error).toContain(`Input "${name}"`)
    expect(error).toContain('is longer than a timer can hold (about 24.8 days)')
  })

  it.each([
    ['a line break', 'mint_abc\ndef_careless', 'a line break (U+000A) at character 9'],
    ['a control character', 'mint_abc\u0007def_careless', 'a control character (U+0007) at character 9'],
    ['a zero-width space', 'mint_abc\u200bdef_careless', 'a zero-width space (U+200B) at character 9'],
    ['a space', 'mint_abc def_careless', 'a space (U+0020) at character 9']
  ])('refuses an api-key holding %s, saying where, and showing no part of the key', (_, key, where) => {
    const { error } = read({ 'api-key': key })
    expect(error).toContain(`Input "api-key" holds ${where}, so it cannot be sent in an HTTP header`)
    expect(error).not.toContain('careless')
    expect(error).not.toContain('mint_abc')
  })

  it.each([
    ['30', ['Input "timeout" is 30, read as 30 seconds; write 30m for minutes.']],
    ['59', ['Input "timeout" is 59, read as 59 seconds; write 59m for minutes.']],
    ['60', []],
    ['30s', []],
    ['30m', []]
  ])('notes that a bare timeout of %j under a minute is read as seconds', (timeout, notices) => {
    expect(read({ timeout }).notices).toEqual(notices)
  })

  it.each([
    [{}, { mode: 'report', rounds: 1, ignore: '' }, false],
    [{ grounding: '', 'grounding-rounds': '' }, { mode: 'report', rounds: 1, ignore: '' }, false],
    [{ grounding: 'OFF' }, { mode: 'off', rounds: 1, ignore: '' }, false],
    [
      { grounding: 'fix', 'grounding-rounds': '3', 'grounding-ignore': 'internal*' },
      { mode: 'fix', rounds: 3, ignore: 'internal*' },
      true
    ]
  ])(
    'reads grounding from %j (fix keeps the tracking comment that records its follow-up)',
    (inputs, grounding, comment) => {
      const { settings } = read({ comment: 'false', ...inputs })
      expect(settings?.grounding).toEqual(grounding)
      expect(settings?.comment).toBe(comment)
    }
  )

  it('warns that a timeout past 6h outlasts a GitHub-hosted runner', () => {
    expect(read({ timeout: '7h' }).warnings).toEqual([
      'Input "timeout" (7h) is longer than a GitHub-hosted runner lets a job run (6h); only a self-hosted runner waits that long.'
    ])
    expect(read({ timeout: '6h' }).warnings).toEqual([])
  })

  it('refuses a poll interval longer than its cap', () => {
    expect(read({ 'poll-interval': '1m', 'max-poll-interval': '30s' }).error).toContain(
      'Input "poll-interval" (1m) must not exceed "max-poll-interval" (30s)'
    )
  })

  it.each(['poll-interval', 'max-poll-interval', 'request-timeout'])(
    'refuses a %s under a second against a remote API, and accepts it against a local simulator',
    (name) => {
      const short = { 'poll-interval': '100ms', [name]: '999ms' }
      expect(read(short).error).toContain(`Input "${name}" (999ms) must be at least 1s against a remote API`)
      expect(read({ ...short, 'base-url': 'http://127.0.0.1:8080' }).settings).toBeDefined()
      expect(read({ ...short, 'poll-interval': '1s', [name]: '1s' }).settings).toBeDefined()
    }
  )

  it('needs a token only when commenting or following up', () => {
    expect(read({ 'github-token': '' }).settings).toBeDefined()
    expect(read({ 'github-token': '', comment: 'true' }).error).toContain(
      'Input "github-token" is required when "comment" or "follow-up" is true'
    )
  })

  it.each(['http://localhost:8080', 'http://127.0.0.1:1', 'http://[::1]:9'])(
    'allows plain http for loopback %s',
    (url) => {
      expect(read({ 'base-url': url }).settings?.baseUrl.origin).toBe(new URL(url).origin)
    }
  )

  it('reads fail-on separated by commas or newlines, in any case', () => {
    expect([...(read({ 'fail-on': 'Completed,\n archived\nTIMEOUT' }).settings?.failOn ?? [])]).toEqual([
      'completed',
      'archived',
      'timeout'
    ])
    expect(read({ 'fail-on': '' }).settings?.failOn.size).toBe(0)
  })

  it('reads an issue number, with or without #', () => {
    expect(read({ 'issue-number': '#42', comment: 'true' }).settings).toMatchObject({ issueNumber: 42, comment: true })
  })

  it('reads a prompt exactly as given, multi-line, and needs no job-id with it', () => {
    const prompt = '  Document the /users endpoint.\n\n  - with examples\n'
    expect(read({ 'job-id': '', prompt }).settings).toMatchObject({ prompt, jobId: undefined })
  })

  it('takes a prompt of only white space as no prompt', () => {
    expect(read({ 'job-id': '', prompt: ' \n ' }).error).toContain('Input "prompt" or "job-id" is required')
  })

  it('reads wait and follow-up as booleans', () => {
    expect(read({ wait: 'false', 'follow-up': 'true', prompt: 'x', 'job-id': '' }).settings).toMatchObject({
      wait: false,
      followUp: true
    })
    expect(read({ wait: 'no' }).error).toContain('Input "wait" must be true or false; got "no"')
  })

  it('needs a prompt for follow-up, and a token for follow-up as for comment', () => {
    expect(read({ 'follow-up': 'true' }).error).toContain('Input "follow-up" sends "prompt"')
    expect(read({ 'follow-up': 'true', prompt: 'x', 'job-id': '', 'github-token': '' }).error).toContain(
      'Input "github-token" is required when "comment" or "follow-up" is true'
    )
  })
})

describe('the prompt context and the preview', () => {
  it.each([
    [{ context: 'auto' }, { context: 'auto', contextLimit: 20_000 }],
    [
      { context: 'AUTO', 'context-limit': '500' },
      { context: 'auto', contextLimit: 500 }
    ],
    [{ preview: 'true', 'fail-on': 'failed,preview-failed' }, { preview: true }]
  ])('reads %j', (inputs, expected) => {
    expect(read(inputs).settings).toMatchObject(expected)
  })

  it.each([
    [{ context: 'yes' }, 'Input "context" must be none or auto; got "yes".'],
    [
      { 'context-limit': '100' },
      'Input "context-limit" must be a whole number of characters from 500 to 100,000; got "100".'
    ],
    [
      { 'context-limit': '20k' },
      'Input "context-limit" must be a whole number of characters from 500 to 100,000; got "20k".'
    ],
    [{ preview: 'maybe' }, 'Input "preview" must be true or false; got "maybe".'],
    [
      { context: 'auto', 'github-token': '' },
      'Input "github-token" is required when "comment" or "follow-up" is true, "context" is auto, or "paths"'
    ]
  ])('refuses %j, naming the input', (inputs, message) => {
    expect(read(inputs).error).toContain(message)
  })
})

describe('requests from comments and labels', () => {
  it('reads a command, who may use it and a label, and keeps a tracking comment for them', () => {
    const settings = read({
      'job-id': '',
      command: '/docs',
      'command-permission': 'Maintain',
      label: 'docs',
      prompt: 'Document it.'
    }).settings
    expect(settings?.requests).toEqual({ command: '/docs', permission: 'maintain', label: 'docs', labelRemove: true })
    expect(settings?.comment).toBe(true)
  })

  it('needs no prompt with a command: the comment holds it', () => {
    expect(read({ 'job-id': '', command: '/docs' }).settings?.prompt).toBeUndefined()
  })

  it.each([
    [{ command: '@mintlify' }, 'Input "command" must be one word of at most 40 characters that does not start with @'],
    [{ command: '/docs please' }, 'Input "command" must be one word'],
    [
      { command: '/docs', 'command-permission': 'read' },
      'Input "command-permission" must be triage, write, maintain, admin; got "read".'
    ],
    [{ 'job-id': '', label: 'docs' }, 'Input "prompt" is required with "label"'],
    [{ command: '/docs' }, 'Input "job-id" does not go with "command" or "label"'],
    [
      { 'job-id': '', label: 'x'.repeat(51), prompt: 'p' },
      'Input "label" must be a label\'s name, at most 50 characters'
    ],
    [
      { 'job-id': '', mode: 'batch', 'digest-label': 'd'.repeat(51), prompt: 'p' },
      'Input "digest-label" must be a label\'s name, at most 50 characters'
    ],
    [
      { 'job-id': '', mode: 'batch', command: '/docs', prompt: 'p' },
      'Inputs "command" and "label" do not go with "mode: batch"'
    ],
    [
      { 'job-id': '', mode: 'batch', 'follow-up': 'true', prompt: 'p' },
      'Input "follow-up" does not go with "mode: batch": each batch starts its own job.'
    ],
    [
      { 'job-id': '', mode: 'pair', 'follow-up': 'true', prompt: 'p' },
      'Input "follow-up" does not go with "mode: pair": each push already follows up the job recorded'
    ]
  ])('refuses %j, naming the input', (inputs, message) => {
    expect(read(inputs).error).toContain(message)
  })
})

describe('eventProblem', () => {
  const modes = (inputs: Record<string, string>) => {
    const { settings } = read({ 'job-id': '', prompt: 'p', ...inputs })
    if (settings === undefined) throw new Error('the inputs were refused')
    return settings
  }

  it.each([
    [{ mode: 'pair' }, 'pull_request'],
    [{ mode: 'pair' }, 'pull_request_target'],
    [{ mode: 'pair', command: '/docs' }, 'issue_comment'],
    [{ mode: 'pair', label: 'docs' }, 'issues'],
    [{}, 'push'],
    [{ mode: 'batch' }, 'schedule']
  ])('lets %j run on %s', (inputs, eventName) => {
    expect(eventProblem(modes(inputs), eventName)).toBeUndefined()
  })

  it.each([
    [{ mode: 'pair' }, 'push'],
    [{ mode: 'pair' }, 'issue_comment'],
    [{ mode: 'pair', command: '/docs' }, 'workflow_dispatch']
  ])('refuses %j on %s, naming the mode and the event', (inputs, eventName) => {
    expect(eventProblem(modes(inputs), eventName)).toContain(`this run's event is "${eventName}"`)
  })
})
