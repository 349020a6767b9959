// An admin API that answers a create one way and each poll of the job another, in turn.
import type { ServerResponse } from 'node:http'
import type { Loopback } from './loopback.ts'

type Answer = (res: ServerResponse) => void

/** The serve function of a file: a create answered by `created`; each GET of the job by `polled` in turn (the last one repeats). */
export function createdThenPolled(servers: Loopback) {
  return function api(created: Answer, ...polled: Answer[]) {
    let polls = 0
    return servers.serve((req, res) => {
      if (req.method === 'POST') return created(res)
      const answer = polled[Math.min(polls++, polled.length - 1)]
      return answer?.(res)
    })
  }
}
