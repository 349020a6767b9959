// The least an action on these packages can cost: it reads its inputs with @actions/core, makes one GET with
// undici and sets one output. The benchmark bundles it with ncc, minified, and holds the action's start-up
// against it.
import * as core from '@actions/core'
import { request } from 'undici'

const url = new URL(
  `${core.getInput('base-url')}/v2/agent/${core.getInput('project-id')}/job/${core.getInput('job-id')}`
)
const answer = await request(url, { headers: { authorization: `Bearer ${core.getInput('api-key')}` } })
await answer.body.dump()
core.setOutput('status', String(answer.statusCode))
