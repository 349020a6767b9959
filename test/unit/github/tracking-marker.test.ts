import { describe, expect, it } from 'vitest'
import { markerOf, readMarker } from '../../../src/github/tracking-marker.ts'
import type { TrackingState } from '../../../src/github/tracking-state.ts'

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
