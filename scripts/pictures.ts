// `npm run pictures`: the README's pictures of the tracking comment (while the preview builds, and once it is ready)
// and of the job summary, made from a real demo run and rendered as GitHub renders Markdown, with GitHub's own
// Markdown styles, so they cannot drift from the code. Writes docs/images/*.png with Chromium from Debian's
// packages (`apt-get install chromium`); the tests check the HTML it renders, which needs no browser.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { marked } from 'marked'
import { type DemoRun, runDemoScenario } from '../demo/scenario.ts'
import { ROOT } from '../sim/run-action.ts'

export interface Picture {
  /** The file's name in docs/images, without `.png`. */
  readonly name: string
  /** The page, as GitHub would show the comment or the summary. */
  readonly html: string
}

const css = await readFile(
  createRequire(import.meta.url).resolve('github-markdown-css/github-markdown-light.css'),
  'utf8'
)

/** A GitHub card around rendered Markdown: a comment by the bot, or a run's job summary. */
function page(header: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; padding: 16px; background: #fff; font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
.card { width: 760px; border: 1px solid #d0d7de; border-radius: 6px; overflow: hidden; }
.card header { background: #f6f8fa; border-bottom: 1px solid #d0d7de; padding: 8px 16px; font-size: 14px; color: #57606a; }
.card header b { color: #1f2328; }
.card .markdown-body { padding: 16px; font-size: 14px; }
</style></head><body><div class="card"><header>${header}</header><article class="markdown-body">${body}</article></div></body></html>`
}

/** The pictures of a demo run: the comment while the preview builds, once it is ready, and the job summary. */
export function picturesOf(demo: DemoRun): Picture[] {
  const building = demo.comments.find((body) => body.includes('Preview building'))
  const ready = demo.comments.at(-1)
  if (building === undefined || ready === undefined) throw new Error('the demo run left no comment with a preview')
  const bot = '<b>github-actions</b> <span>bot</span> commented'
  return [
    // GitHub renders each line break in a comment as a break.
    { name: 'comment-building', html: page(bot, marked.parse(building, { async: false, breaks: true })) },
    { name: 'comment-ready', html: page(bot, marked.parse(ready, { async: false, breaks: true })) },
    { name: 'job-summary', html: page('<b>docs</b> summary', demo.run.summary) }
  ]
}

async function screenshot(pictures: readonly Picture[]): Promise<void> {
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM'] ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run'
    ]
  })
  try {
    const tab = await browser.newPage({ deviceScaleFactor: 2 })
    for (const picture of pictures) {
      await tab.setContent(picture.html)
      await tab.locator('.card').screenshot({ path: join(ROOT, 'docs', 'images', `${picture.name}.png`) })
      console.log(`docs/images/${picture.name}.png`)
    }
  } finally {
    await browser.close()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await screenshot(picturesOf(await runDemoScenario()))
}
