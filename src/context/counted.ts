/** `1,234`. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US')
}

/** `1 file`, `2 files`, `1 body`, `2 bodies`. */
export function counted(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`
}
