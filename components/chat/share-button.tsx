'use client';

import { useRef, useState } from 'react';
import { useReportError } from '@/components/error-toaster';
import { CheckIcon, CopyIcon, ShareIcon, XIcon } from '@/components/icons';
import { fetchJson } from '@/lib/client/fetch-json';

/** Creates (or returns the existing) public link of an answer, then shows it with a Copy button. */
export function ShareButton({ answerId }: { answerId: string }) {
  const reportError = useReportError();
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  async function share() {
    setBusy(true);
    try {
      const { share: created } = await fetchJson<{ share: { slug: string; url: string } }>('/api/shares', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answerId }),
      });
      setUrl(created.url);
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (plain http, permissions): select the link so the user can copy it.
      inputRef.current?.select();
    }
  }

  if (!url) {
    return (
      <button
        type="button"
        onClick={share}
        disabled={busy}
        className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:opacity-60"
      >
        <ShareIcon className="h-3.5 w-3.5" /> {busy ? 'Sharing…' : 'Share'}
      </button>
    );
  }
  return (
    <div
      className="flex w-full max-w-md items-center gap-1 rounded-md border border-slate-200 bg-white p-1 text-xs shadow-sm"
      data-testid="share-link"
    >
      <input
        ref={inputRef}
        readOnly
        value={url}
        aria-label="Share link"
        onFocus={(e) => e.currentTarget.select()}
        className="min-w-0 flex-1 bg-transparent px-1.5 font-mono text-slate-700 outline-none"
      />
      <button
        type="button"
        onClick={copy}
        className="inline-flex items-center gap-1 rounded bg-brand-600 px-2 py-1 font-medium text-white hover:bg-brand-700"
      >
        {copied ? <CheckIcon className="h-3.5 w-3.5" /> : <CopyIcon className="h-3.5 w-3.5" />}
        {copied ? 'Copied' : 'Copy'}
      </button>
      <button
        type="button"
        onClick={() => setUrl(null)}
        className="rounded p-1 text-slate-400 hover:text-slate-700"
        aria-label="Hide share link"
      >
        <XIcon className="h-3.5 w-3.5" />
      </button>
    </div>
  );
}
