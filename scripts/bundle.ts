// `npm run bundle`: dist/ from src/ with ncc, then the lazily loaded chunks minified too (ncc minifies only
// dist/index.js), and dist/licenses.txt written for every package in every file (ncc's own list covers only the
// last chunk it writes), each under a license on the allow-list in scripts/licenses.ts. dist/ is emptied first, so
// no chunk of an earlier build is left behind. The build is recorded as the build of these sources (bundle-stamp.ts).
// `node scripts/bundle.ts <folder>` writes the same build elsewhere (the end-to-end tests build into build/).
import { execFileSync } from 'node:child_process'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join, relative, resolve } from 'node:path'
import { minify } from 'terser'
import { ROOT } from '../sim/run-action.ts'
import { forgetBuild, recordBuild, sourceHash } from './bundle-stamp.ts'
import { bundledPackages, declaredLicense, type Entry, entries, entryProblems } from './licenses.ts'

const DIST = resolve(ROOT, process.argv[2] ?? 'dist')
const ncc = createRequire(import.meta.url).resolve('@vercel/ncc/dist/ncc/cli.js')

const builtFrom = await sourceHash()
await forgetBuild(DIST)
await rm(DIST, { recursive: true, force: true })
execFileSync(
  process.execPath,
  [ncc, 'build', 'src/index.ts', '-o', relative(ROOT, DIST), '--minify', '--source-map', '--no-source-map-register'],
  { cwd: ROOT, stdio: 'inherit' }
)

for (const file of (await readdir(DIST)).filter((name) => /^\d+\.index\.js$/.test(name))) {
  const [code, map] = await Promise.all([
    readFile(join(DIST, file), 'utf8'),
    readFile(join(DIST, `${file}.map`), 'utf8')
  ])
  // The same options ncc uses for dist/index.js: names kept, so stack traces stay readable.
  const minified = await minify(code, {
    module: true,
    compress: false,
    mangle: { keep_classnames: true, keep_fnames: true },
    sourceMap: { content: map, filename: file, url: `${file}.map` }
  })
  if (minified.code === undefined || typeof minified.map !== 'string')
    throw new Error(`terser returned nothing for ${file}`)
  await Promise.all([writeFile(join(DIST, file), minified.code), writeFile(join(DIST, `${file}.map`), minified.map)])
  console.log(
    `minified ${relative(ROOT, DIST)}/${file}: ${Math.round(code.length / 1024)} kB -> ${Math.round(minified.code.length / 1024)} kB`
  )
}

async function entryOf(name: string): Promise<Entry> {
  const directory = join(ROOT, 'node_modules', name)
  const license = declaredLicense(JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as object)
  const file = (await readdir(directory)).find((entry) => /^licen[cs]e(\.|$)/i.test(entry))
  const text = file === undefined ? '' : (await readFile(join(directory, file), 'utf8')).trim()
  return { name, license: license ?? '', text }
}

// Every bundled package must be under a license on the allow-list in scripts/licenses.ts, with its license file: the
// build stops, naming each package that is not, before dist/licenses.txt is written.
const bundled = await Promise.all((await bundledPackages(DIST)).map(entryOf))
const problems = entryProblems(bundled)
if (problems.length > 0) throw new Error(`bundled licenses not allowed:\n${problems.join('\n')}`)
await writeFile(join(DIST, 'licenses.txt'), entries(bundled))
console.log(`${relative(ROOT, DIST)}/licenses.txt: ${bundled.length} packages, each under a license on the allow-list`)
await recordBuild(DIST, builtFrom)
