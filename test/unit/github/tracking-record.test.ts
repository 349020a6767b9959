import { describe, expect, it } from 'vitest'
import {
  markerOf,
  MAX_SUBMISSIONS,
  mergeRecords,
  promptHash,
  readMarker,
  type TrackingState,
  tracksProject,
  withRequests
} from '../../../src/github/tracking-record.ts'

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
    for (let n = 0; n < MAX_SUBMISSIONS + 3; n++)
      state = withRequests(state, [request(String(n), n ? 'follow-up' : 'start')])
    expect(state.requests).toHaveLength(MAX_SUBMISSIONS)
    expect(state.requests[0]?.run).toBe('0')
    expect(state.requests[1]?.run).toBe('4')
    expect(state.omitted).toBe(3)
  })
})

describe('mergeRecords', () => {
  const request = (run: string, kind: 'start' | 'follow-up' = 'follow-up', unsure = false) => ({
    kind,
    run,
    attempt: 1,
    prompt: promptHash(run),
    line: run,
    ...(unsure ? { unsure } : {})
  })
  const start = request('1', 'start')

  it("keeps a follow-up another run recorded since this one read the comment, and this run's own news", () => {
    const stored = { job: 'job-1', requests: [start, request('2', 'follow-up', true)] }
    const ours = { job: 'job-1', requests: [start] }
    expect(mergeRecords(stored, ours, [start]).requests).toEqual([start, request('2', 'follow-up', true)])
  })

  it("takes this run's requests as it holds them now: confirmed, or withdrawn", () => {
    const mine = request('3', 'follow-up', true)
    const stored = { job: 'job-1', requests: [start, mine, request('4')] }
    const confirmed = { job: 'job-1', requests: [start, request('3')] }
    expect(mergeRecords(stored, confirmed, [mine]).requests).toEqual([start, request('3'), request('4')])
    const withdrawn = { job: 'job-1', requests: [start] }
    expect(mergeRecords(stored, withdrawn, [mine]).requests).toEqual([start, request('4')])
  })

  it('brings back no request another run has withdrawn since', () => {
    const stored = { job: 'job-1', requests: [start] }
    const ours = { job: 'job-1', requests: [start, request('5', 'follow-up', true)] }
    expect(mergeRecords(stored, ours, []).requests).toEqual([start])
  })

  it("adds this run's new request last", () => {
    const stored = { job: 'job-1', requests: [start, request('2')] }
    const ours = { job: 'job-1', requests: [start, request('6', 'follow-up', true)] }
    expect(mergeRecords(stored, ours, [request('6')]).requests.map((item) => item.run)).toEqual(['1', '2', '6'])
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

describe('the tracking marker', () => {
  it('reads the marker of an earlier version, which tracked the job alone', () => {
    expect(readMarker('<!-- wait-for-mintlify-agent-job: job-1 -->\nold outcome')).toEqual({
      job: 'job-1',
      requests: []
    })
  })

  it('keeps an id with odd characters intact, and can never be closed early by one', () => {
    const odd: TrackingState = { job: 'a-->b<!--?#%&', requests: [] }
    const marker = markerOf(odd)
    expect(marker.indexOf('-->')).toBe(marker.length - 3)
    expect(readMarker(marker)).toEqual(odd)
  })

  it('reads no job id that could not be one: a space, a control character, or a dot path', () => {
    for (const job of ['a b', 'a\nb', '..', '.']) expect(readMarker(markerOf({ job, requests: [] }))).toBeUndefined()
  })

  it('reads nothing from a comment that only quotes a marker, or a marker with a mangled state', () => {
    expect(readMarker(`> ${markerOf({ job: 'j', requests: [] })}`)).toBeUndefined()
    expect(readMarker('<!-- wait-for-mintlify-agent-job: j bm90IGpzb24 -->')).toEqual({ job: 'j', requests: [] })
    expect(readMarker('<!-- wait-for-mintlify-agent-job: %E0%A4 -->')).toBeUndefined()
  })
})
