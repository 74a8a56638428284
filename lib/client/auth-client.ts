import { createAuthClient } from 'better-auth/react';

/** Browser-side Better Auth client (same origin). */
export const authClient = createAuthClient();
