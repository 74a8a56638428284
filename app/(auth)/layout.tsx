import Link from 'next/link';
import type { ReactNode } from 'react';
import { Logo } from '@/components/logo';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <Link href="/" className="mb-8 flex items-center gap-2 text-xl font-semibold tracking-tight text-slate-900">
        <Logo className="h-9 w-9" />
        DocuChat
      </Link>
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">{children}</div>
      <p className="mt-6 max-w-sm text-center text-xs text-slate-500">
        Self-hosted: your documents and questions stay on this server.
      </p>
    </main>
  );
}
