/** The readable message of a chat error (the route answers `{ error: { code, message } }`). */
export function chatErrorText(error: Error | undefined): string | null {
  if (!error) return null;
  try {
    const body = JSON.parse(error.message) as unknown;
    if (typeof body === 'object' && body !== null && 'error' in body) {
      const inner = (body as { error: unknown }).error;
      if (typeof inner === 'object' && inner !== null && 'message' in inner && typeof inner.message === 'string')
        return inner.message;
    }
  } catch {
    // not JSON: a stream error text
  }
  return error.message || 'The answer could not be completed. Please try again.';
}
