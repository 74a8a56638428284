/** The chunk index answered "unavailable" (server down or overloaded): a reason to wait, not "nothing matched". */
export function isIndexUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (typeof e === 'object' && 'code' in e && (e as { code: unknown }).code === 'unavailable:index') return true;
    e = typeof e === 'object' && 'cause' in e ? (e as { cause: unknown }).cause : null;
  }
  return false;
}
