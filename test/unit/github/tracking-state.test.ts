import { describe, expect, it } from 'vitest'
import {
  MAX_TRACKED_REQUESTS,
  promptHash,
  type TrackingState,
  tracksProject,
  withRequests
} from '../../../src/github/tracking-state.ts'

describe('promptHash', () => {
  it('fingerprints a prompt without keeping it', () => {
    expect(promptHash('Document the API')).toMatch(/^[0-9a-f]{16}$/)
    expect(promptHash('Document the API')).not.toBe(promptHash('Document the API '))
  })
})

describe('withRequests', () => {
  const request = (run: string, kind: 'start' | 'follow-up' = 'follow-up') => ({
    kind,
    run,
    attempt: 1,
    prompt: promptHash(run),
    line: run
  })

  it('adds a request once, however often it is written', () => {
    const state = withRequests({ job: 'job-1', requests: [request('1', 'start')] }, [request('2')])
    expect(withRequests(state, [request('2')]).requests.map((item) => item.run)).toEqual(['1', '2'])
  })

  it('keeps the first prompt and the latest follow-ups, counting the ones left out', () => {
    let state: TrackingState = { job: 'job-1', requests: [] }
    for (let n = 0; n < MAX_TRACKED_REQUESTS + 3; n++)
      state = withRequests(state, [request(String(n), n ? 'follow-up' : 'start')])
    expect(state.requests).toHaveLength(MAX_TRACKED_REQUESTS)
    expect(state.requests[0]?.run).toBe('0')
    expect(state.requests[1]?.run).toBe('4')
    expect(state.omitted).toBe(3)
  })
})

describe('tracksProject', () => {
  it("is true for this project's requests and for a marker that recorded none", () => {
    const with_ = (project?: string): TrackingState => ({
      job: 'j',
      requests: [
        { ...{ kind: 'start', run: '1', attempt: 1, prompt: 'h', line: 'l' }, ...(project ? { project } : {}) } as const
      ]
    })
    expect(tracksProject(with_('docs'), 'docs')).toBe(true)
    expect(tracksProject(with_(), 'docs')).toBe(true)
    expect(tracksProject(with_('other'), 'docs')).toBe(false)
  })
})
