import { expect, it } from 'vitest'

it('runs on the Node major the action declares (runs.using: node24)', () => {
  expect(process.version).toMatch(/^v24\./)
})
