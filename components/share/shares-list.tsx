'use client';

import { useState } from 'react';
import { EmptyState } from '@/components/empty-state';
import { useReportError } from '@/components/error-toaster';
import { Button } from '@/components/ui/button';
import { fetchJson } from '@/lib/client/fetch-json';
import type { ShareSummary } from '@/lib/db/shares';

type Share = ShareSummary & { url: string };

function statusOf(s: Share): { label: string; className: string } {
  if (s.revokedAt) return { label: 'Revoked', className: 'bg-slate-100 text-slate-600' };
  if (!s.active) return { label: 'Expired', className: 'bg-slate-100 text-slate-600' };
  return { label: 'Active', className: 'bg-emerald-50 text-emerald-700' };
}

/** The owner's shared links: copy, set or clear an expiry, revoke. */
export function SharesList({ initialShares }: { initialShares: Share[] }) {
  const [shares, setShares] = useState(initialShares);
  const [copied, setCopied] = useState<string | null>(null);
  const reportError = useReportError();

  const replace = (share: Share) => setShares((all) => all.map((s) => (s.id === share.id ? share : s)));

  async function revoke(share: Share) {
    if (!window.confirm('Revoke this link? Anyone opening it will see “not available”.')) return;
    try {
      const { share: updated } = await fetchJson<{ share: Share }>(`/api/shares/${share.id}`, { method: 'DELETE' });
      replace(updated);
    } catch (error) {
      reportError(error);
    }
  }

  async function setExpiry(share: Share, days: number | null) {
    try {
      const expiresAt = days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString();
      const { share: updated } = await fetchJson<{ share: Share }>(`/api/shares/${share.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ expiresAt }),
      });
      replace(updated);
    } catch (error) {
      reportError(error);
    }
  }

  async function copy(share: Share) {
    try {
      await navigator.clipboard.writeText(share.url);
      setCopied(share.id);
      setTimeout(() => setCopied(null), 2000);
    } catch {
      window.prompt('Copy this link:', share.url);
    }
  }

  if (shares.length === 0) {
    return (
      <EmptyState title="No shared answers yet">
        Open a conversation in Chat and press <strong>Share</strong> under an answer to create a read-only link.
      </EmptyState>
    );
  }

  return (
    <ul
      className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white"
      data-testid="shares-list"
    >
      {shares.map((share) => {
        const status = statusOf(share);
        return (
          <li
            key={share.id}
            className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center"
            data-testid="share-row"
            data-slug={share.slug}
          >
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium text-slate-900" title={share.question}>
                {share.question || 'Untitled answer'}
              </p>
              <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <span className={`rounded-full px-2 py-0.5 font-medium ${status.className}`}>{status.label}</span>
                <span>Created {share.createdAt.slice(0, 10)}</span>
                {share.expiresAt && !share.revokedAt ? <span>· expires {share.expiresAt.slice(0, 10)}</span> : null}
                {share.active ? (
                  <a
                    href={share.url}
                    target="_blank"
                    rel="noreferrer"
                    className="truncate font-mono text-brand-700 hover:underline"
                  >
                    /share/{share.slug}
                  </a>
                ) : null}
              </p>
            </div>
            {share.active ? (
              <div className="flex flex-wrap items-center gap-2">
                <Button variant="secondary" size="sm" onClick={() => copy(share)}>
                  {copied === share.id ? 'Copied' : 'Copy link'}
                </Button>
                <label className="sr-only" htmlFor={`expiry-${share.id}`}>
                  Expiry
                </label>
                <select
                  id={`expiry-${share.id}`}
                  className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs"
                  value=""
                  onChange={(e) => {
                    const v = e.target.value;
                    if (v) void setExpiry(share, v === 'never' ? null : Number(v));
                  }}
                >
                  <option value="">Set expiry…</option>
                  <option value="1">in 1 day</option>
                  <option value="7">in 7 days</option>
                  <option value="30">in 30 days</option>
                  <option value="never">never</option>
                </select>
                <Button variant="danger" size="sm" onClick={() => revoke(share)}>
                  Revoke
                </Button>
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
