import { describe, expect, it } from 'vitest'
import { readRunnerEnvironment } from '../../../src/runner/environment.ts'

describe('readRunnerEnvironment', () => {
  it.each([
    [
      { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' },
      { name: 'https_proxy', value: 'http://lower:1' }
    ],
    [
      { https_proxy: '  ', HTTPS_PROXY: 'http://upper:1' },
      { name: 'HTTPS_PROXY', value: 'http://upper:1' }
    ],
    [{ HTTPS_PROXY: ' proxy:3128 ' }, { name: 'HTTPS_PROXY', value: 'proxy:3128' }],
    [{}, undefined]
  ])('takes the lower-case proxy variable first, and a blank one as unset (%#)', (env, https) => {
    expect(readRunnerEnvironment(env).proxies.https).toEqual(https)
  })

  it('reads the run, the repository and the summary file', () => {
    expect(
      readRunnerEnvironment({
        GITHUB_RUN_ID: '42',
        GITHUB_REPOSITORY: 'acme/docs',
        GITHUB_SERVER_URL: 'https://ghes.example',
        GITHUB_STEP_SUMMARY: '/tmp/summary',
        GITHUB_JOB: 'docs',
        GITHUB_ACTION: 'agent',
        NO_PROXY: 'localhost'
      })
    ).toEqual({
      runId: '42',
      eventName: '',
      sha: '',
      step: 'docs/agent',
      repository: 'acme/docs',
      serverUrl: 'https://ghes.example',
      summaryPath: '/tmp/summary',
      proxies: { http: undefined, https: undefined, noProxy: 'localhost' }
    })
  })
})
