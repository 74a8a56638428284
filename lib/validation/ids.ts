const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical UUID (any version); ids that are not answer as "not found" before any query runs. */
export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
