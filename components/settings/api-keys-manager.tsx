'use client';

import { type FormEvent, useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { useReportError } from '@/components/error-toaster';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { fetchJson } from '@/lib/client/fetch-json';
import type { ApiKeyScope, ApiKeySummary } from '@/lib/db/api-keys';

const EXPIRY_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
];

function statusOf(k: ApiKeySummary): { label: string; className: string } {
  if (k.revokedAt) return { label: 'Revoked', className: 'bg-slate-100 text-slate-600' };
  if (!k.active) return { label: 'Expired', className: 'bg-slate-100 text-slate-600' };
  return { label: 'Active', className: 'bg-emerald-50 text-emerald-700' };
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : null);

/** Create (the key is shown once, with a copy button), list and revoke the user's API keys. */
export function ApiKeysManager({ initialKeys }: { initialKeys: ApiKeySummary[] }) {
  const [keys, setKeys] = useState(initialKeys);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Record<ApiKeyScope, boolean>>({ read: true, write: false });
  const [expiry, setExpiry] = useState('90');
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<{ key: string; name: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const reportError = useReportError();

  async function create(event: FormEvent) {
    event.preventDefault();
    setCreating(true);
    try {
      const chosen = (Object.keys(scopes) as ApiKeyScope[]).filter((s) => scopes[s]);
      const created = await fetchJson<{ key: string; apiKey: ApiKeySummary }>('/api/api-keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, scopes: chosen, expiresInDays: expiry === 'never' ? null : Number(expiry) }),
      });
      setKeys((all) => [created.apiKey, ...all]);
      setFresh({ key: created.key, name: created.apiKey.name });
      setCopied(false);
      setName('');
    } catch (error) {
      reportError(error);
    } finally {
      setCreating(false);
    }
  }

  async function revoke(key: ApiKeySummary) {
    if (!window.confirm(`Revoke “${key.name}”? Anything using it stops working at once.`)) return;
    try {
      const { apiKey } = await fetchJson<{ apiKey: ApiKeySummary }>(`/api/api-keys/${key.id}`, { method: 'DELETE' });
      setKeys((all) => all.map((k) => (k.id === apiKey.id ? apiKey : k)));
    } catch (error) {
      reportError(error);
    }
  }

  async function copy(value: string) {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      window.prompt('Copy this key:', value);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <form
        onSubmit={create}
        className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:p-5"
        aria-label="Create an API key"
      >
        <h2 className="text-base font-semibold text-slate-900">Create a key</h2>
        <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <TextField
            id="api-key-name"
            label="Name"
            placeholder="e.g. nightly CI"
            required
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.target.value)}
            hint="So you can tell your keys apart."
          />
          <div className="flex flex-col gap-1.5">
            <label htmlFor="api-key-expiry" className="text-sm font-medium text-slate-700">
              Expires after
            </label>
            <select
              id="api-key-expiry"
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
            >
              {EXPIRY_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-700">Scopes</legend>
          {(
            [
              ['read', 'read – list, search, open cited passages, ask'],
              ['write', 'write – upload, edit, delete, share'],
            ] as const
          ).map(([scope, label]) => (
            <label key={scope} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                name={`scope-${scope}`}
                checked={scopes[scope]}
                onChange={(e) => setScopes((s) => ({ ...s, [scope]: e.target.checked }))}
                className="h-4 w-4 rounded border-slate-300 text-brand-600"
              />
              {label}
            </label>
          ))}
        </fieldset>
        <div>
          <Button type="submit" disabled={creating || !name.trim() || (!scopes.read && !scopes.write)}>
            {creating ? 'Creating…' : 'Create key'}
          </Button>
        </div>
      </form>

      {fresh ? (
        <section
          className="rounded-xl border border-amber-300 bg-amber-50 p-4 sm:p-5"
          aria-live="polite"
          data-testid="new-api-key"
        >
          <h2 className="text-base font-semibold text-amber-900">Copy your new key “{fresh.name}” now</h2>
          <p className="mt-1 text-sm text-amber-800">It is shown only once; we keep only a hash of it.</p>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center">
            <code
              className="min-w-0 flex-1 break-all rounded-md border border-amber-200 bg-white px-3 py-2 font-mono text-sm text-slate-900"
              data-testid="new-api-key-value"
            >
              {fresh.key}
            </code>
            <div className="flex gap-2">
              <Button variant="secondary" onClick={() => copy(fresh.key)}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
              <Button variant="secondary" onClick={() => setFresh(null)}>
                Done
              </Button>
            </div>
          </div>
        </section>
      ) : null}

      {keys.length === 0 ? (
        <EmptyState title="No API keys yet">Create a key above to call DocuChat from a script or an agent.</EmptyState>
      ) : (
        <ul
          className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white"
          data-testid="api-keys-list"
        >
          {keys.map((key) => {
            const status = statusOf(key);
            return (
              <li
                key={key.id}
                className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center"
                data-testid="api-key-row"
              >
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="truncate font-medium text-slate-900">{key.name}</span>
                    <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-600">
                      {key.prefix}…
                    </code>
                  </p>
                  <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
                    <span className={`rounded-full px-2 py-0.5 font-medium ${status.className}`}>{status.label}</span>
                    <span>{key.scopes.join(' + ')}</span>
                    <span>· created {day(key.createdAt)}</span>
                    <span>· {key.expiresAt ? `expires ${day(key.expiresAt)}` : 'never expires'}</span>
                    <span>· {key.lastUsedAt ? `last used ${day(key.lastUsedAt)}` : 'never used'}</span>
                  </p>
                </div>
                {key.active ? (
                  <Button variant="danger" size="sm" onClick={() => revoke(key)}>
                    Revoke
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
