'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { authClient } from '@/lib/client/auth-client';

function messageFor(error: { status?: number; message?: string; code?: string } | null): string {
  if (!error) return 'Something went wrong. Please try again.';
  if (error.status === 429) return 'Too many attempts. Please wait a minute before trying again.';
  if (error.code === 'INVALID_EMAIL_OR_PASSWORD') return 'Wrong email or password.';
  if (error.code === 'PASSWORD_TOO_SHORT') return 'The password must have at least 8 characters.';
  return error.message ?? 'Something went wrong. Please try again.';
}

/** Sign-in and sign-up form; on success goes to `next` (a same-site path). */
export function AuthForm({ mode, next }: { mode: 'sign-in' | 'sign-up'; next: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email') ?? '').trim();
    const password = String(form.get('password') ?? '');
    setPending(true);
    setError(null);
    try {
      if (mode === 'sign-up') {
        // Sign-up answers alike whether or not the email is taken and opens no session (lib/auth/auth.ts):
        // signing in next succeeds only with the account's own password.
        const created = await authClient.signUp.email({
          email,
          password,
          name: String(form.get('name') ?? '').trim() || email,
        });
        if (created.error) {
          setError(messageFor(created.error));
          return;
        }
      }
      const result = await authClient.signIn.email({ email, password });
      if (result.error) {
        setError(
          mode === 'sign-up' && result.error.code === 'INVALID_EMAIL_OR_PASSWORD'
            ? 'Could not create this account. If you already have one, sign in instead.'
            : messageFor(result.error),
        );
        return;
      }
      router.replace(next);
      router.refresh();
    } catch {
      setError('Could not reach the server. Check your connection and try again.');
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate={false}>
      <div>
        <h1 className="text-lg font-semibold text-slate-900">
          {mode === 'sign-in' ? 'Sign in' : 'Create your account'}
        </h1>
        <p className="mt-1 text-sm text-slate-500">
          {mode === 'sign-in'
            ? 'Welcome back. Ask your documents anything.'
            : 'Upload documents and ask questions with cited answers.'}
        </p>
      </div>
      {mode === 'sign-up' ? <TextField id="name" name="name" label="Name" autoComplete="name" maxLength={100} /> : null}
      <TextField id="email" name="email" type="email" label="Email" autoComplete="email" required maxLength={254} />
      <TextField
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
        required
        minLength={8}
        maxLength={256}
        hint={mode === 'sign-up' ? 'At least 8 characters.' : undefined}
      />
      {error ? (
        <p
          role="alert"
          data-testid="form-error"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
        >
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={pending} className="w-full">
        {pending ? 'Please wait…' : mode === 'sign-in' ? 'Sign in' : 'Create account'}
      </Button>
      <p className="text-center text-sm text-slate-500">
        {mode === 'sign-in' ? (
          <>
            No account yet?{' '}
            <Link
              className="font-medium text-brand-600 hover:underline"
              href={`/sign-up?next=${encodeURIComponent(next)}`}
            >
              Create one
            </Link>
          </>
        ) : (
          <>
            Already have an account?{' '}
            <Link
              className="font-medium text-brand-600 hover:underline"
              href={`/sign-in?next=${encodeURIComponent(next)}`}
            >
              Sign in
            </Link>
          </>
        )}
      </p>
    </form>
  );
}
