import { ZodError } from 'zod';
import { AppError } from '@/lib/errors';

/**
 * The one route error handler: AppError → its status and body; zod → 422 with field messages;
 * anything else → a generic 500 with no internals (logged server-side with its cause).
 */
export function handleRouteError(error: unknown): Response {
  if (error instanceof AppError) return errorResponse(error);
  if (error instanceof ZodError) {
    const fields: Record<string, string> = {};
    for (const issue of error.issues) fields[issue.path.join('.') || '_'] ??= issue.message;
    return errorResponse(new AppError('unprocessable:api', 'Some fields are not valid.', { details: { fields } }));
  }
  console.error('[route] unexpected error', error);
  return errorResponse(new AppError('internal:api'));
}

export function errorResponse(error: AppError): Response {
  const headers = new Headers({ 'content-type': 'application/json', 'cache-control': 'no-store' });
  if (error.retryAfter !== undefined) headers.set('retry-after', String(Math.max(1, Math.ceil(error.retryAfter))));
  return new Response(JSON.stringify(error.toBody()), { status: error.status, headers });
}
