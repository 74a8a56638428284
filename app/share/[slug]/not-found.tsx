import { Logo } from '@/components/logo';

export default function ShareNotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center px-4 text-center">
      <Logo className="h-10 w-10" />
      <h1 className="mt-4 text-xl font-semibold text-slate-900">This link is not available</h1>
      <p className="mt-2 text-sm text-slate-600">
        The shared answer does not exist, was revoked by its owner, or has expired.
      </p>
    </main>
  );
}
