/**
 * One error vocabulary for the whole app. Codes are `type:surface`; the type decides the HTTP status.
 * Route handlers throw AppError (or let zod errors through) and `handleRouteError` turns them into JSON
 * `{ error: { code, message, details? } }`; the browser rebuilds the same AppError from that body.
 */

export const errorTypes = {
  bad_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  quota_exceeded: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorType = keyof typeof errorTypes;

export type ErrorSurface =
  | 'auth'
  | 'api'
  | 'config'
  | 'document'
  | 'bucket'
  | 'upload'
  | 'chunk'
  | 'conversation'
  | 'answer'
  | 'share'
  | 'agent'
  | 'index'
  | 'llm'
  | 'database'
  | 'request';

export type ErrorCode = `${ErrorType}:${ErrorSurface}`;

/** Default messages a user can read; specific messages override them. */
const defaultMessages: Record<ErrorType, string> = {
  bad_request: 'The request could not be understood.',
  invalid_json: 'The request body is not valid JSON.',
  unauthorized: 'Please sign in to continue.',
  forbidden: 'You are not allowed to do that.',
  not_found: 'Not found.',
  conflict: 'That conflicts with something that already exists.',
  payload_too_large: 'That is too large.',
  quota_exceeded: 'Your storage quota is full.',
  unsupported_media_type: 'That file type is not supported.',
  unprocessable: 'Some fields are not valid.',
  rate_limited: 'Too many requests. Please wait a moment and try again.',
  internal: 'Something went wrong on our side. Please try again.',
  unavailable: 'A service this needs is not reachable right now.',
};

/** One invalid field of a request: its path (dot-joined, `_` for the body itself) and what is wrong. */
export interface FieldError {
  path: string;
  message: string;
}

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** For 422: every invalid field, in the order found. */
    fields?: FieldError[];
    details?: Record<string, unknown>;
  };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly type: ErrorType;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly fields: FieldError[] | undefined;
  /** Seconds after which a rate-limited request may retry. */
  readonly retryAfter: number | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { details?: Record<string, unknown>; fields?: FieldError[]; cause?: unknown; retryAfter?: number } = {},
  ) {
    const type = code.split(':')[0] as ErrorType;
    super(message ?? defaultMessages[type], { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.type = type;
    this.status = errorTypes[type];
    this.details = options.details;
    this.fields = options.fields;
    this.retryAfter = options.retryAfter;
  }

  toBody(): ErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields ? { fields: this.fields } : {}),
        ...(this.details ? { details: this.details } : {}),
      },
    };
  }
}

/** True when `code` is one of ours (used when rebuilding errors from JSON in the browser). */
export function isErrorCode(code: unknown): code is ErrorCode {
  if (typeof code !== 'string') return false;
  const [type, surface] = code.split(':');
  return type !== undefined && surface !== undefined && type in errorTypes && surface.length > 0;
}

/** Rebuilds an AppError from a response body; anything unrecognised becomes internal:api. */
export function errorFromBody(body: unknown, status?: number): AppError {
  if (body && typeof body === 'object' && 'error' in body) {
    const e = (body as { error: unknown }).error;
    if (e && typeof e === 'object' && 'code' in e && isErrorCode((e as { code: unknown }).code)) {
      const { code, message, details, fields } = e as {
        code: ErrorCode;
        message?: unknown;
        details?: unknown;
        fields?: unknown;
      };
      return new AppError(code, typeof message === 'string' ? message : undefined, {
        details: details && typeof details === 'object' ? (details as Record<string, unknown>) : undefined,
        fields: Array.isArray(fields) ? fields.filter(isFieldError) : undefined,
      });
    }
  }
  if (status === 429) return new AppError('rate_limited:api');
  if (status === 401) return new AppError('unauthorized:auth');
  return new AppError('internal:api');
}

function isFieldError(value: unknown): value is FieldError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { path?: unknown }).path === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
