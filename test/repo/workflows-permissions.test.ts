// Least privilege: a workflow grants nothing (or only `contents: read`) at its top, and each job says what its own
// token may do. Only the jobs below may write, and only what they name. The workflows the README and docs/ show grant
// no write at their top either: a write sits on the job that needs it, as users should copy it.
import { parse } from 'yaml'
import { expect, it } from 'vitest'
import { documentedYaml, workflowFiles } from './workflow-files.ts'

/** The writes each job needs: workflow file, then job id, then the scopes it may write. */
const WRITES: Record<string, Record<string, string[]>> = {
  // Uploads its findings to code scanning.
  'codeql.yml': { analyze: ['security-events'] },
  'release.yml': {
    // Creates the GitHub release and moves the major tag.
    release: ['contents'],
    // Signs the build provenance of dist/ with the workflow's OIDC identity, and stores it.
    attest: ['id-token', 'attestations']
  }
}

interface Workflow {
  permissions?: unknown
  jobs?: Record<string, { permissions?: unknown }>
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function permissionProblems(name: string, workflow: Workflow): string[] {
  const problems: string[] = []
  const top = workflow.permissions
  const topScopes = isMap(top) ? Object.entries(top) : []
  if (
    !isMap(top) ||
    topScopes.some(([scope, level]) => !(scope === 'contents' && level === 'read') && level !== 'none')
  )
    problems.push(`${name}: the top-level permissions must be {} or contents: read, not ${JSON.stringify(top)}`)
  for (const [id, job] of Object.entries(workflow.jobs ?? {})) {
    const permissions = job.permissions
    if (!isMap(permissions)) {
      problems.push(`${name}: job "${id}" has no permissions: of its own (${JSON.stringify(permissions)})`)
      continue
    }
    for (const [scope, level] of Object.entries(permissions)) {
      if (level !== 'read' && level !== 'write' && level !== 'none')
        problems.push(`${name}: job "${id}" grants ${scope}: ${String(level)}`)
      if (level === 'write' && !(WRITES[name]?.[id] ?? []).includes(scope))
        problems.push(`${name}: job "${id}" may not write ${scope}`)
    }
  }
  return problems
}

it('grants each job only the permissions it needs, in its own permissions:', async () => {
  const files = await workflowFiles()
  const problems = files.flatMap(({ path, text }) =>
    permissionProblems(path.replace('.github/workflows/', ''), parse(text) as Workflow)
  )
  expect(problems).toEqual([])
})

/** What is wrong with a documented workflow's permissions: a write (or none declared) at its top. */
function documentedPermissionProblems(name: string, workflow: Workflow): string[] {
  const top = workflow.permissions
  if (!isMap(top)) return [`${name}: the top-level permissions must be a map with no write, not ${JSON.stringify(top)}`]
  const writes = Object.entries(top).filter(([, level]) => level !== 'read' && level !== 'none')
  const atTop = writes.map(
    ([scope, level]) => `${name}: grants ${scope}: ${String(level)} to every job; put it on the job that needs it`
  )
  const inJobs = Object.entries(workflow.jobs ?? {}).flatMap(([id, job]) =>
    job.permissions === undefined || isMap(job.permissions)
      ? []
      : [`${name}: job "${id}" grants ${JSON.stringify(job.permissions)}`]
  )
  return [...atTop, ...inJobs]
}

it('puts every write of the workflows the README and docs/ show on the job that needs it', async () => {
  const workflows = (await documentedYaml()).filter(({ workflow }) => workflow)
  expect(workflows.length).toBeGreaterThanOrEqual(6)
  const problems = workflows.flatMap(({ path, text }) => documentedPermissionProblems(path, parse(text) as Workflow))
  expect(problems).toEqual([])
})

it.each([
  [
    'a write at the top',
    { permissions: { 'pull-requests': 'write' }, jobs: {} },
    'grants pull-requests: write to every job'
  ],
  ['write-all at the top', { permissions: 'write-all', jobs: {} }, 'must be a map with no write'],
  ['no permissions at all', { jobs: {} }, 'must be a map with no write'],
  [
    'read-all on a job',
    { permissions: {}, jobs: { docs: { permissions: 'read-all' } } },
    'job "docs" grants "read-all"'
  ]
])('refuses a documented workflow with %s', (_, workflow, message) => {
  expect(documentedPermissionProblems('README.md #2', workflow).join('\n')).toContain(message)
})

it('accepts a documented workflow whose job holds its write', () => {
  const workflow = { permissions: {}, jobs: { docs: { permissions: { issues: 'write' } }, wait: {} } }
  expect(documentedPermissionProblems('README.md #2', workflow)).toEqual([])
})

it('grants every write it allows somewhere, so the list above stays true', async () => {
  const granted = new Set<string>()
  for (const { path, text } of await workflowFiles()) {
    const name = path.replace('.github/workflows/', '')
    for (const [id, job] of Object.entries((parse(text) as Workflow).jobs ?? {}))
      for (const [scope, level] of Object.entries(isMap(job.permissions) ? job.permissions : {}))
        if (level === 'write') granted.add(`${name} ${id} ${scope}`)
  }
  const allowed = Object.entries(WRITES).flatMap(([name, jobs]) =>
    Object.entries(jobs).flatMap(([id, scopes]) => scopes.map((scope) => `${name} ${id} ${scope}`))
  )
  expect(allowed.filter((write) => !granted.has(write))).toEqual([])
})

it.each([
  ['write-all at the top', { permissions: 'write-all', jobs: {} }, 'the top-level permissions must be'],
  ['no top-level permissions', { jobs: {} }, 'the top-level permissions must be'],
  ['a top-level write', { permissions: { issues: 'write' }, jobs: {} }, 'the top-level permissions must be'],
  ['a job without permissions', { permissions: {}, jobs: { test: {} } }, 'job "test" has no permissions: of its own'],
  ['a job with read-all', { permissions: {}, jobs: { test: { permissions: 'read-all' } } }, 'has no permissions:'],
  [
    'a write the job does not need',
    { permissions: {}, jobs: { test: { permissions: { contents: 'write' } } } },
    'job "test" may not write contents'
  ]
])('refuses %s', (_, workflow, message) => {
  expect(permissionProblems('ci.yml', workflow as Workflow).join('\n')).toContain(message)
})

it('accepts a job that reads the code under a workflow that grants nothing', () => {
  expect(
    permissionProblems('ci.yml', { permissions: {}, jobs: { test: { permissions: { contents: 'read' } } } })
  ).toEqual([])
})
