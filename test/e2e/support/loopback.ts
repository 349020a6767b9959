// Loopback servers for one test file: each test starts its own, and all of them close when the file ends (tests in
// a file run side by side, so none may close another's).
import { afterAll } from 'vitest'
import { type Respond, type RunningServer, startServer } from '../../../sim/admin-api.ts'
import { type AgentApi, type AgentApiOptions, simulateAgentApi } from '../../../sim/agent-api.ts'
import { type FakeGitHub, type FakeGitHubOptions, startFakeGitHub } from '../../../sim/github-api.ts'

/** Closures, not methods: a test may take them apart (`const { serve } = loopback()`). */
export interface Loopback {
  readonly serve: (respond: Respond) => Promise<RunningServer>
  /** The simulated admin API's agent jobs, served. */
  readonly agentApi: (options: AgentApiOptions) => Promise<{ api: AgentApi; server: RunningServer }>
  readonly github: (options?: FakeGitHubOptions) => Promise<FakeGitHub>
  /** Closes this too when the file ends. */
  readonly track: (closable: { close(): Promise<void> }) => void
}

export function loopback(): Loopback {
  const open: { close(): Promise<void> }[] = []
  afterAll(async () => {
    await Promise.all(open.map((closable) => closable.close()))
  })
  const track = (closable: { close(): Promise<void> }): void => {
    open.push(closable)
  }
  const serve = async (respond: Respond): Promise<RunningServer> => {
    const server = await startServer(respond)
    track(server)
    return server
  }
  return {
    serve,
    agentApi: async (options) => {
      const api = simulateAgentApi(options)
      return { api, server: await serve(api.respond) }
    },
    github: async (options) => {
      const github = await startFakeGitHub(options)
      track(github)
      return github
    },
    track
  }
}
