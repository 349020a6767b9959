// What the simulated GitHub serves the grounding check: a repository's tarball at a commit, and the reviews on a pull
// request (listed, made with comments on lines, edited) and their comments (listed, deleted).
import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendJson } from './admin-api.ts'

export interface SimulatedReview {
  readonly id: number
  readonly repo: string
  readonly pull: number
  readonly user: string
  body: string
  readonly comments: { readonly id: number; readonly path: string; readonly line: number; readonly body: string }[]
}

export interface GroundingWorld {
  /** Gzipped tarballs by `owner/name@ref`. */
  readonly tarballs: Readonly<Record<string, Buffer>>
  readonly reviews: SimulatedReview[]
  /** The paths a pull request's diff holds, by `owner/name#number`: a review comment elsewhere is refused. */
  readonly diffPaths: (repo: string, pull: number) => readonly string[] | undefined
  nextId: () => number
}

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>
}

const view = (review: SimulatedReview) => ({
  id: review.id,
  user: { login: review.user },
  body: review.body,
  state: 'COMMENTED'
})

/** Answers the request when it is one of these; false otherwise. */
export async function groundingRoute(
  world: GroundingWorld,
  where: { readonly req: IncomingMessage; readonly res: ServerResponse; readonly repo: string; readonly rest: string },
  writer: string
): Promise<boolean> {
  const { req, res, repo, rest } = where
  const method = req.method ?? ''
  const tar = /^\/tarball\/(.+)$/.exec(rest)
  if (tar && method === 'GET') {
    const archive = world.tarballs[`${repo}@${decodeURIComponent(tar[1] ?? '')}`]
    if (archive === undefined) sendJson(res, 404, { message: 'Not Found' })
    else res.writeHead(200, { 'content-type': 'application/x-gzip', 'content-length': archive.length }).end(archive)
    return true
  }
  const reviews = /^\/pulls\/(\d+)\/reviews(?:\/(\d+)(\/comments)?)?$/.exec(rest)
  const deleted = /^\/pulls\/comments\/(\d+)$/.exec(rest)
  if (!reviews && !(deleted && method === 'DELETE')) return false
  if (deleted) {
    for (const review of world.reviews) {
      const at = review.comments.findIndex((comment) => comment.id === Number(deleted[1]))
      if (at >= 0) {
        review.comments.splice(at, 1)
        res.writeHead(204).end()
        return true
      }
    }
    sendJson(res, 404, { message: 'Not Found' })
    return true
  }
  const pull = Number(reviews?.[1])
  const id = reviews?.[2] === undefined ? undefined : Number(reviews[2])
  const found = world.reviews.find((review) => review.id === id && review.repo === repo)
  const written = world.reviews.some((review) => review.repo === repo && review.pull === pull)
  // A pull request's reviews by people (a sweep's world, github-pulls.ts) are listed there, until a step writes one.
  if (id === undefined && method === 'GET' && !written) return false
  if (id === undefined && method === 'GET') {
    sendJson(res, 200, world.reviews.filter((review) => review.repo === repo && review.pull === pull).map(view))
  } else if (id === undefined && method === 'POST') {
    sendReview(world, res, { repo, pull, user: writer, body: await bodyOf(req) })
  } else if (found && reviews?.[3] && method === 'GET') {
    sendJson(res, 200, found.comments)
  } else if (found && method === 'PUT') {
    found.body = String((await bodyOf(req))['body'])
    sendJson(res, 200, view(found))
  } else sendJson(res, 404, { message: 'Not Found' })
  return true
}

function sendReview(
  world: GroundingWorld,
  res: ServerResponse,
  made: { readonly repo: string; readonly pull: number; readonly user: string; readonly body: Record<string, unknown> }
): void {
  const asked = Array.isArray(made.body['comments']) ? (made.body['comments'] as Record<string, unknown>[]) : []
  const paths = world.diffPaths(made.repo, made.pull) ?? []
  if (asked.some((comment) => !paths.includes(String(comment['path'])))) {
    sendJson(res, 422, { message: 'Unprocessable Entity', errors: ['Path could not be resolved'] })
    return
  }
  const comments = asked.map((comment) => ({
    id: world.nextId(),
    path: String(comment['path']),
    line: Number(comment['line']),
    body: String(comment['body'])
  }))
  const review = {
    id: world.nextId(),
    repo: made.repo,
    pull: made.pull,
    user: made.user,
    body: String(made.body['body']),
    comments
  }
  world.reviews.push(review)
  sendJson(res, 200, view(review))
}
