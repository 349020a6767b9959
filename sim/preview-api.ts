// A local stand-in for the admin API's preview deployments, as Mintlify documents them: `POST
// /v1/project/preview/{projectId}` with `{"branch"}` answers 202 `{statusId, previewUrl}` (a second trigger for a
// branch is a rebuild); `GET /v1/project/update-status/{statusId}` follows the build from queued to in_progress to
// success or failure, with a summary and the build's log lines. A plan without previews gets 403, an empty branch
// 400, and more than five triggers a minute 429 with Retry-After.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendJson } from './admin-api.ts'

export interface PreviewApiOptions {
  /** How each build goes: queued for a poll or so, building, then its end. */
  readonly build?: {
    readonly queuedPolls?: number
    readonly buildingPolls?: number
    readonly final: 'success' | 'failure'
    readonly summary?: string
    readonly logs?: readonly string[]
  }
  /** The organization's plan has no previews. */
  readonly noPlan?: boolean
  /** Triggers allowed a minute before 429 (Mintlify's limit is five). */
  readonly perMinute?: number
  readonly retryAfterS?: number
}

interface Build {
  readonly branch: string
  polls: number
}

export interface PreviewApi {
  /** Answers a request for the preview API; false when the path is not one of its. */
  respond(req: IncomingMessage, res: ServerResponse, body: unknown): boolean
  /** Each trigger that arrived, answered or not, in order. */
  readonly triggers: { readonly branch: unknown; readonly status: number }[]
  readonly builds: Map<string, Build>
}

const DEFAULT_BUILD = { queuedPolls: 1, buildingPolls: 2, final: 'success' } as const

export function simulatePreviewApi(projectId: string, options: PreviewApiOptions = {}): PreviewApi {
  const builds = new Map<string, Build>()
  const triggers: PreviewApi['triggers'] = []
  const accepted: number[] = []
  const build = { ...DEFAULT_BUILD, ...options.build }
  const statusOf = (polls: number) =>
    polls <= build.queuedPolls
      ? 'queued'
      : polls <= build.queuedPolls + build.buildingPolls
        ? 'in_progress'
        : build.final

  const trigger = (res: ServerResponse, body: unknown): void => {
    const branch = typeof body === 'object' && body !== null && 'branch' in body ? body.branch : undefined
    const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      triggers.push({ branch, status })
      sendJson(res, status, json, headers)
    }
    if (typeof branch !== 'string' || branch === '') return answer(400, { error: 'branch is required' })
    if (options.noPlan) return answer(403, { error: 'Preview deployments are not available on your current plan.' })
    const now = performance.now()
    while (accepted.length > 0 && (accepted[0] ?? 0) <= now - 60_000) accepted.shift()
    if (accepted.length >= (options.perMinute ?? 5)) {
      return answer(429, { error: 'Rate limit exceeded' }, { 'retry-after': String(options.retryAfterS ?? 60) })
    }
    accepted.push(now)
    const statusId = `status-${builds.size + 1}`
    builds.set(statusId, { branch, polls: 0 })
    answer(202, { statusId, previewUrl: `https://acme-${branch.replace(/\W+/g, '-')}.mintlify.app` })
  }

  const status = (res: ServerResponse, statusId: string): void => {
    const found = builds.get(statusId)
    if (!found) return sendJson(res, 404, { error: 'Status not found' })
    found.polls += 1
    const now = statusOf(found.polls)
    const ended = now === 'success' || now === 'failure'
    sendJson(res, 200, {
      _id: statusId,
      projectId,
      createdAt: '2026-11-22T09:10:00.000Z',
      endedAt: ended ? '2026-11-22T09:11:00.000Z' : null,
      status: now,
      summary: now === 'failure' ? (build.summary ?? 'The build failed.') : ended ? 'Deployed the preview.' : '',
      logs: ended ? (build.logs ?? ['Building the docs', now === 'failure' ? 'Error: the build failed' : 'Done']) : [],
      subdomain: 'acme',
      commit: {
        sha: '4f2a9c1',
        ref: found.branch,
        message: 'Update the docs',
        filesChanged: { added: [], modified: [] }
      }
    })
  }

  return {
    triggers,
    builds,
    respond: (req, res, body) => {
      const path = (req.url ?? '').split('?')[0] ?? ''
      if (req.method === 'POST' && path === `/v1/project/preview/${encodeURIComponent(projectId)}`) {
        trigger(res, body)
        return true
      }
      const read = /^\/v1\/project\/update-status\/([^/]+)$/.exec(path)
      if (req.method === 'GET' && read) {
        status(res, decodeURIComponent(read[1] ?? ''))
        return true
      }
      return false
    }
  }
}
