import { ZodError } from 'zod';
import { AppError, type FieldError } from '@/lib/errors';

/**
 * The one route error handler: AppError → its status and body; zod → 422 with field messages (`fields`: every
 * issue as { path, message }; `details.fields`: the first message per path, which the forms read);
 * anything else → a generic 500 with no internals (logged server-side with its cause).
 */
export function handleRouteError(error: unknown): Response {
  if (error instanceof AppError) return errorResponse(error);
  if (error instanceof ZodError) return errorResponse(validationError(error));
  console.error('[route] unexpected error', error);
  return errorResponse(new AppError('internal:api'));
}

export function errorResponse(error: AppError): Response {
  const headers = new Headers({ 'content-type': 'application/json', 'cache-control': 'no-store' });
  if (error.retryAfter !== undefined) headers.set('retry-after', String(Math.max(1, Math.ceil(error.retryAfter))));
  return new Response(JSON.stringify(error.toBody()), { status: error.status, headers });
}

/** A zod error as the 422 AppError: one message naming the first invalid field, and every field listed. */
export function validationError(error: ZodError): AppError {
  const list: FieldError[] = error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '_',
    message: issue.message,
  }));
  const byPath: Record<string, string> = {};
  for (const field of list) byPath[field.path] ??= field.message;
  const first = list[0];
  const message =
    first && first.path !== '_'
      ? `Some fields are not valid (${first.path}: ${first.message}).`
      : first
        ? `The request body is not valid: ${first.message}`
        : 'Some fields are not valid.';
  return new AppError('unprocessable:api', message, { fields: list, details: { fields: byPath } });
}
