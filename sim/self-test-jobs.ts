import type { JobStory } from './admin-api.ts'

/** The jobs the self-test workflow waits for, in project `self-test` with key `mint_self_test_key`. */
const project = { projectId: 'self-test', apiKey: 'mint_self_test_key' }

export const SELF_TEST_JOBS: readonly JobStory[] = [
  {
    ...project,
    jobId: 'completed-job',
    activePolls: 2,
    final: { status: 'completed', prLink: 'https://github.com/acme/docs/pull/128' }
  },
  { ...project, jobId: 'no-changes-job', final: { status: 'completed', prLink: null } },
  { ...project, jobId: 'failed-job', activePolls: 1, final: { status: 'failed' } },
  { ...project, jobId: 'archived-job', final: { status: 'archived' } },
  { ...project, jobId: 'slow-job', activeForMs: 600_000, final: { status: 'completed' } }
]
