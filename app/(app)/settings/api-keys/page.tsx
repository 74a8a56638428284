import type { Metadata } from 'next';
import Link from 'next/link';
import { ApiKeysManager } from '@/components/settings/api-keys-manager';
import { requireUserForPage } from '@/lib/auth/session';
import { getConfig } from '@/lib/config';
import { listApiKeys } from '@/lib/db/api-keys';

export const metadata: Metadata = { title: 'API keys' };

export default async function ApiKeysPage() {
  const user = await requireUserForPage('/settings/api-keys');
  const apiKeys = await listApiKeys({ ownerId: user.id });
  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
      <p className="mt-1 max-w-3xl text-sm text-slate-600">
        Let a script, a CI job or another agent use DocuChat as you: send{' '}
        <code className="rounded bg-slate-100 px-1 font-mono text-xs">Authorization: Bearer &lt;key&gt;</code> to the{' '}
        <Link href="/api-docs" className="font-medium text-brand-700 hover:underline">
          HTTP API
        </Link>{' '}
        or connect an MCP client to{' '}
        <code className="rounded bg-slate-100 px-1 font-mono text-xs">{getConfig().appUrl}/api/mcp</code>. A key sees
        only your documents. <strong>read</strong> lets it list, search, open and ask; <strong>write</strong> lets it
        upload, change, delete and share.
      </p>
      <div className="mt-6">
        <ApiKeysManager initialKeys={apiKeys} />
      </div>
    </main>
  );
}
