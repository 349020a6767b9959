import { describe, expect, it } from 'vitest'
import { repositoryName } from '../../../src/context/repository-name.ts'

describe('repositoryName', () => {
  it('reads GITHUB_REPOSITORY', () => {
    expect(repositoryName('acme/widgets.js', {})).toEqual({
      owner: 'acme',
      repo: 'widgets.js',
      fullName: 'acme/widgets.js'
    })
  })

  it("falls back on the payload's repository when GITHUB_REPOSITORY is not a name", () => {
    expect(repositoryName('', { repository: { full_name: 'acme/docs' } })?.fullName).toBe('acme/docs')
  })

  it.each(['', 'acme', 'acme/', '/widgets', 'acme/widgets/extra', '../widgets', 'acme/..', 'acme/wid gets', 'a/b?c'])(
    'refuses %j',
    (name) => {
      expect(repositoryName(name, { repository: { full_name: name } })).toBeUndefined()
    }
  )
})
