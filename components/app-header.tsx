'use client';

import clsx from 'clsx';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { useReportError } from '@/components/error-toaster';
import { Logo } from '@/components/logo';
import { authClient } from '@/lib/client/auth-client';
import { AppError } from '@/lib/errors';

/** `short`: the label on phones, where the full labels do not fit beside the sign-out button. */
const nav: { href: string; label: string; short?: string }[] = [
  { href: '/documents', label: 'Documents' },
  { href: '/chat', label: 'Chat' },
  { href: '/shares', label: 'Shared links', short: 'Shared' },
  { href: '/settings/api-keys', label: 'API keys', short: 'API' },
];

/** The app's header: brand, navigation, and the signed-in user with a sign-out button. */
export function AppHeader({ email, name }: { email: string; name: string }) {
  const pathname = usePathname();
  const router = useRouter();
  const reportError = useReportError();
  const [signingOut, setSigningOut] = useState(false);

  async function signOut() {
    setSigningOut(true);
    const result = await authClient.signOut();
    setSigningOut(false);
    if (result.error) {
      reportError(new AppError('internal:auth', 'Could not sign out. Please try again.'));
      return;
    }
    router.replace('/sign-in');
    router.refresh();
  }

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-3 sm:gap-4 sm:px-6">
        <Link
          href="/documents"
          aria-label="DocuChat: your documents"
          className="flex items-center gap-2 font-semibold tracking-tight text-slate-900"
        >
          <Logo />
          <span className="hidden sm:inline">DocuChat</span>
        </Link>
        <nav aria-label="Main" className="flex min-w-0 items-center gap-0.5 overflow-x-auto sm:gap-1">
          {nav.map((item) => {
            const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
            return (
              <Link
                key={item.href}
                href={item.href}
                aria-current={active ? 'page' : undefined}
                aria-label={item.short ? item.label : undefined}
                className={clsx(
                  'whitespace-nowrap rounded-md px-1.5 py-1.5 text-sm font-medium transition-colors sm:px-3',
                  active ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                )}
              >
                {item.short ? (
                  <>
                    <span className="sm:hidden">{item.short}</span>
                    <span className="hidden sm:inline">{item.label}</span>
                  </>
                ) : (
                  item.label
                )}
              </Link>
            );
          })}
        </nav>
        <div className="ml-auto flex flex-none items-center gap-3">
          <span
            className="hidden max-w-[16rem] truncate text-sm text-slate-600 md:inline"
            title={email}
            data-testid="current-user"
          >
            {name && name !== email ? `${name} · ` : ''}
            {email}
          </span>
          <button
            type="button"
            onClick={signOut}
            disabled={signingOut}
            className="whitespace-nowrap rounded-md border border-slate-300 px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-60 sm:px-3"
          >
            {signingOut ? 'Signing out…' : 'Sign out'}
          </button>
        </div>
      </div>
    </header>
  );
}
