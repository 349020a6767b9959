// Serves the simulated admin API until stopped, for the self-test workflow and for trying the action by hand:
//   node sim/serve.ts [port]
// Project `self-test`, key `mint_self_test_key`; jobs: `completed-job` (active for two polls, then completed
// with a pull request), `no-changes-job` (completed without one), `failed-job` (active once, then failed),
// `archived-job`, and `slow-job` (active for ten minutes).
import { playJobs, startServer } from './admin-api.ts'
import { SELF_TEST_JOBS } from './self-test-jobs.ts'

const server = await startServer(playJobs(SELF_TEST_JOBS), { port: Number(process.argv[2] ?? 8787) })
console.log(`Simulated Mintlify admin API at ${server.url} (project "self-test", key "mint_self_test_key")`)
const stop = (): void => {
  void server.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
