// `npm run bench`'s section on the grounding check: quality on published packages, and speed against grep.
import { measurePackage, PACKAGES, type PackageQuality } from './grounding-quality.ts'
import { measureSpeed, type SpeedFigures } from './grounding-speed.ts'

/** Names put into each package's change. */
const INJECTIONS = 5

export interface GroundingFigures {
  readonly packages: readonly PackageQuality[]
  readonly speed: SpeedFigures
}

export async function measureGrounding(): Promise<GroundingFigures> {
  const packages: PackageQuality[] = []
  for (const spec of PACKAGES) packages.push(await measurePackage(spec, INJECTIONS))
  return { packages, speed: await measureSpeed() }
}

/** Ungrounded names per 100 names, over these packages' clean changes. */
export function ungroundedPer100(packages: readonly PackageQuality[]): number {
  const names = packages.reduce((sum, row) => sum + row.names, 0)
  return (100 * packages.reduce((sum, row) => sum + row.ungrounded.length, 0)) / Math.max(1, names)
}

/** The share of the names put in that were reported. */
export function injectedFound(packages: readonly PackageQuality[]): number {
  const injected = packages.reduce((sum, row) => sum + row.injected.length, 0)
  return packages.reduce((sum, row) => sum + row.injected.length - row.missed.length, 0) / Math.max(1, injected)
}
