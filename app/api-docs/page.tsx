import type { Metadata } from 'next';
import Link from 'next/link';
import { ApiReference } from '@/components/api-docs/api-reference';
import { Logo } from '@/components/logo';
import { getConfig } from '@/lib/config';
import { buildOpenApiDocument } from '@/lib/http/openapi';

export const metadata: Metadata = { title: 'API reference' };
export const dynamic = 'force-dynamic';

/** The HTTP API's reference, rendered from the same OpenAPI document /api/openapi.json serves. Public. */
export default function ApiDocsPage() {
  const doc = buildOpenApiDocument({ serverUrl: getConfig().appUrl });
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-4 sm:px-6">
          <Link href="/documents" className="flex items-center gap-2 font-semibold tracking-tight text-slate-900">
            <Logo />
            <span>DocuChat</span>
          </Link>
          <span className="text-sm text-slate-500">API reference · v{doc.info.version}</span>
          <a href="/api/openapi.json" className="ml-auto text-sm font-medium text-brand-700 hover:underline">
            openapi.json
          </a>
        </div>
      </header>
      <ApiReference doc={doc} />
    </div>
  );
}
