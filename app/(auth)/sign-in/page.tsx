import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AuthForm } from '@/components/auth-form';
import { getSessionUser, safeNextPath } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const destination = safeNextPath(typeof next === 'string' ? next : undefined);
  if (await getSessionUser()) redirect(destination);
  return <AuthForm mode="sign-in" next={destination} />;
}
