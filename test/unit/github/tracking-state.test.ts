import { describe, expect, it } from 'vitest'
import { promptHash } from '../../../src/github/tracking-state.ts'

describe('promptHash', () => {
  it('fingerprints a prompt without keeping it', () => {
    expect(promptHash('Document the API')).toMatch(/^[0-9a-f]{16}$/)
    expect(promptHash('Document the API')).not.toBe(promptHash('Document the API '))
  })
})
