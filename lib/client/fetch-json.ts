import { AppError, errorFromBody } from '@/lib/errors';

/** fetch + JSON for our API: non-2xx answers are rebuilt into the typed AppError the server sent. */
export async function fetchJson<T>(input: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(input, { ...init, headers: { accept: 'application/json', ...init?.headers } });
  } catch (cause) {
    throw new AppError('unavailable:api', 'Could not reach the server. Check your connection and try again.', {
      cause,
    });
  }
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) throw errorFromBody(body, response.status);
  return body as T;
}
