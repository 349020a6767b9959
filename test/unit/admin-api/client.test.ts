// The admin API's requests as they leave the client: under base-url's own path, every id percent-encoded into one
// segment of it, whatever an answer or an input put in the id. undici's MockAgent stands in for the network.
import { MockAgent } from 'undici'
import { describe, expect, it } from 'vitest'
import { settingsOf } from '../../../sim/settings.ts'
import { createAdminApi } from '../../../src/admin-api/client.ts'

/** The paths the client asks for, each request answered with this job. */
function recorded(baseUrl: string) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  const paths: string[] = []
  agent
    .get(new URL(baseUrl).origin)
    .intercept({ path: () => true, method: () => true })
    .reply((request) => {
      paths.push(`${request.method} ${request.path}`)
      return { statusCode: 200, data: { id: 'job-1', status: 'active' } }
    })
    .persist()
  const transport = {
    dispatcher: agent,
    userAgent: 'test',
    redact: (text: string) => text,
    cancelSignal: new AbortController().signal,
    proxyFor: () => undefined
  }
  const api = createAdminApi(settingsOf({ 'base-url': baseUrl }), transport, undefined)
  return { api, paths }
}

describe('createAdminApi', () => {
  it.each(['a/../../v1/project/preview/docs', '%2e%2e', 'job-1?x=1', 'job#1', '..%2F..'])(
    'keeps the id %j in one path segment of every request',
    async (id) => {
      const { api, paths } = recorded('https://api.mintlify.com')
      await api.getJob(id, 1000)
      await api.sendFollowUp(id, 'More', 1000)
      await api.readPreviewBuild(id, 1000)
      const [poll, followUp, build] = paths.map((path) => /^(\w+) (\/[\w/-]+\/)([^/?#]+)(\/message)?$/.exec(path))
      expect([poll?.[1], poll?.[2], poll?.[4]]).toEqual(['GET', '/v2/agent/docs/job/', undefined])
      expect([followUp?.[1], followUp?.[2], followUp?.[4]]).toEqual(['POST', '/v2/agent/docs/job/', '/message'])
      expect([build?.[1], build?.[2], build?.[4]]).toEqual(['GET', '/v1/project/update-status/', undefined])
      for (const match of [poll, followUp, build]) expect(decodeURIComponent(match?.[3] ?? '')).toBe(id)
    }
  )

  it("builds every path under base-url's own", async () => {
    const { api, paths } = recorded('https://gateway.example/mintlify/')
    await api.createJob('Document it', 1000)
    await api.triggerPreview('mintlify/job-1', 1000)
    expect(paths).toEqual(['POST /mintlify/v2/agent/docs/job', 'POST /mintlify/v1/project/preview/docs'])
  })
})
