// Serves the simulated admin API until stopped, for the self-test workflow and for trying the action by hand:
//   npm run sim [-- port]   (port 8787 by default)
// Project `self-test`, key `mint_self_test_key`. A prompt starts a new job (active for two polls, then completed
// with a pull request), and follow-ups are accepted. Jobs that exist from the start: `completed-job` (active for
// two polls, then completed with a pull request), `no-changes-job` (completed without one), `failed-job` (active
// once, then failed), `archived-job`, and `slow-job` (active for ten minutes).
import { startServer } from './admin-api.ts'
import { simulateAgentApi } from './agent-api.ts'
import { SELF_TEST_JOBS } from './self-test-jobs.ts'

const api = simulateAgentApi({ projectId: 'self-test', apiKey: 'mint_self_test_key', existing: SELF_TEST_JOBS })
const server = await startServer(api.respond, { port: Number(process.argv[2] ?? 8787) })
console.log(`Simulated Mintlify admin API at ${server.url} (project "self-test", key "mint_self_test_key")`)
const stop = (): void => {
  void server.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
