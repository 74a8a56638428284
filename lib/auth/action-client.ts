import { createSafeActionClient } from 'next-safe-action';
import { getSessionUser } from '@/lib/auth/session';
import { AppError } from '@/lib/errors';

/**
 * Server actions: every action built from `authActionClient` runs only for a signed-in user and receives
 * `ctx.user`. Errors become `{ serverError: { code, message } }`; unknown errors never leak internals.
 */
export const actionClient = createSafeActionClient({
  handleServerError(error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    console.error('[action] unexpected error', error);
    const internal = new AppError('internal:api');
    return { code: internal.code, message: internal.message };
  },
});

export const authActionClient = actionClient.use(async ({ next }) => {
  const user = await getSessionUser();
  if (!user) throw new AppError('unauthorized:auth');
  return next({ ctx: { user } });
});
