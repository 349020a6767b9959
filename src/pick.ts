/** A copy of `object` with only `keys`: each part of the action gets only the settings it needs. */
export function pick<T extends object, K extends keyof T>(object: T, ...keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, object[key]])) as Pick<T, K>
}
