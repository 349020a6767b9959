/**
 * Why this id cannot be one segment of a URL path, or undefined when it can. An id is percent-encoded into its
 * segment, but `.` and `..` would still move the path, and a space or a control character is never part of an id.
 */
export function pathSegmentProblem(value: string): string | undefined {
  if (/^\.+$/.test(value)) return `must be an id, not "${value}"`
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(value)) return 'must not contain spaces or control characters'
  return undefined
}
