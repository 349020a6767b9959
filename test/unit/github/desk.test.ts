import { describe, expect, it } from 'vitest'
import { parseCommand, readRequest, roleOf } from '../../../src/github/desk.ts'
import { mayAsk, type RequestSettings } from '../../../src/inputs/mode-settings.ts'

const REQUESTS: RequestSettings = { command: '/docs', permission: 'write', label: 'docs', labelRemove: true }

const comment = (body: string, more: Record<string, unknown> = {}) => ({
  action: 'created',
  issue: { number: 12, pull_request: {} },
  comment: { id: 5, body, user: { login: 'mona', type: 'User' } },
  ...more
})

describe('parseCommand', () => {
  it.each([
    ['/docs update the auth page', { kind: 'ask', text: 'update the auth page', fresh: false }],
    ['/DOCS   update\nthe auth page\n', { kind: 'ask', text: 'update\nthe auth page', fresh: false }],
    ['  /docs new rewrite it', { kind: 'ask', text: 'rewrite it', fresh: true }],
    ['/docs newer pages', { kind: 'ask', text: 'newer pages', fresh: false }],
    ['/docs status', { kind: 'status' }],
    ['/docs status of the auth page', { kind: 'ask', text: 'status of the auth page', fresh: false }],
    ['/docs', { kind: 'usage' }],
    ['/docs new', { kind: 'usage' }],
    ['\uFEFF/docs\r\nfix the typo', { kind: 'ask', text: 'fix the typo', fresh: false }]
  ])('reads %j', (body, command) => {
    expect(parseCommand(body, '/docs')).toEqual(command)
  })

  it.each(['/docsify', 'please /docs update', '> /docs update', '@mintlify update', '`/docs` update', ''])(
    'finds no command in %j',
    (body) => {
      expect(parseCommand(body, '/docs')).toBeUndefined()
    }
  )
})

describe('readRequest', () => {
  it('reads a comment command: who asked, where, and the comment to react on', () => {
    expect(readRequest('issue_comment', comment('/docs fix it'), REQUESTS)).toEqual({
      kind: 'request',
      request: {
        by: 'mona',
        number: 12,
        command: { kind: 'ask', text: 'fix it', fresh: false },
        comment: { id: 5, review: false }
      }
    })
  })

  it('is no request when the settings take none from this event, so the mode goes on', () => {
    expect(readRequest('issue_comment', comment('/docs fix it'), { ...REQUESTS, command: undefined })).toBeUndefined()
    expect(readRequest('issues', { action: 'opened', issue: { number: 1 } }, REQUESTS)).toBeUndefined()
    expect(readRequest('push', {}, REQUESTS)).toBeUndefined()
  })

  it.each([
    [comment('/docs x', { action: 'edited' }), 'an edited comment is not a new request'],
    [comment('/docs x', { action: 'deleted' }), 'no command'],
    [comment('thanks!'), 'no command'],
    [
      comment('/docs x', { comment: { id: 5, body: '/docs x', user: { login: 'app', type: 'Bot' } } }),
      "a bot's comment"
    ],
    [comment('/docs x', { comment: { id: 5, body: '/docs x', user: { login: 'renovate[bot]' } } }), "a bot's comment"],
    [comment('/docs x', { issue: { number: 'twelve' } }), 'the event names no issue or pull request'],
    [comment('/docs x', { comment: { body: '/docs x', user: { login: 'mona' } } }), 'the comment has no id']
  ])('ignores %j: %s', (payload, reason) => {
    expect(readRequest('issue_comment', payload, REQUESTS)).toEqual({ kind: 'ignored', reason })
  })

  it('reads the label added, by whom, case aside; another label is no request of ours', () => {
    const labelled = (name: string) => ({
      action: 'labeled',
      label: { name },
      pull_request: { number: 3 },
      sender: { login: 'mona' }
    })
    expect(readRequest('pull_request', labelled('Docs'), REQUESTS)).toEqual({
      kind: 'request',
      request: { by: 'mona', number: 3, command: { kind: 'label' }, comment: undefined }
    })
    expect(readRequest('pull_request', labelled('bug'), REQUESTS)).toEqual({
      kind: 'ignored',
      reason: 'the label added is not "docs"'
    })
  })
})

describe('who may ask', () => {
  it.each([
    [{ permission: 'admin', role_name: 'admin' }, 'admin'],
    [{ permission: 'write', role_name: 'maintain' }, 'maintain'],
    [{ permission: 'read', role_name: 'triage' }, 'triage'],
    [{ permission: 'write', role_name: 'docs-editor' }, 'write'],
    [{ permission: 'none' }, 'none'],
    [{ permission: 42 }, 'none'],
    ['not an object', 'none']
  ])('reads %j as %s', (answer, role) => {
    expect(roleOf(answer)).toBe(role)
  })

  it('lets a role ask when it is at least the one needed', () => {
    expect(mayAsk('write', 'write')).toBe(true)
    expect(mayAsk('admin', 'maintain')).toBe(true)
    expect(mayAsk('triage', 'write')).toBe(false)
    expect(mayAsk('read', 'triage')).toBe(false)
    expect(mayAsk('none', 'triage')).toBe(false)
  })
})
