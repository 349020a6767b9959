// The README's pictures are made from a real demo run (scripts/pictures.ts): the HTML they are rendered from must
// show what a reviewer sees. Making the PNGs needs Chromium, and stays out of the tests.
import { expect, inject, it } from 'vitest'
import { runDemoScenario } from '../../demo/scenario.ts'
import { picturesOf } from '../../scripts/pictures.ts'

const PREVIEW = 'https://acme-mintlify-job-1.mintlify.app/'

it('renders the comment while the preview builds and once it is ready, and the job summary, from a demo run', async () => {
  const pictures = picturesOf(await runDemoScenario({ entry: inject('bundleEntry') }))
  expect(pictures.map((picture) => picture.name)).toEqual(['comment-building', 'comment-ready', 'job-summary'])
  const [building, ready, summary] = pictures.map((picture) => picture.html)
  expect(building).toContain('<strong>Mintlify agent job completed</strong>')
  expect(building).toContain(`<strong>Preview building</strong>: <a href="${PREVIEW}">`)
  expect(ready).toContain(`<strong>Preview ready</strong>: <a href="${PREVIEW}">`)
  expect(summary).toContain(`<tr><th>Preview</th><td>success <a href="${PREVIEW}">`)
  for (const html of pictures.map((picture) => picture.html)) {
    expect(html).not.toContain('mint_demo_key_not_a_real_secret')
    // The marker stays hidden: GitHub shows no HTML comment.
    expect(html.replaceAll(/<!--[\s\S]*?-->/g, '')).not.toContain('wait-for-mintlify-agent-job')
  }
})
