'use client';

import { useEffect, useState } from 'react';
import { z } from 'zod';
import { InfoIcon } from '@/components/icons';

const RECHECK_MS = 60_000;

const healthSchema = z.object({
  embedder: z.object({ status: z.string(), model: z.string() }),
  mode: z.object({ semanticSearch: z.boolean() }),
});

/**
 * Tells the user when semantic search is off (GET /api/health: no embedding model answered), and which model
 * their documents will get vectors from once it is reachable. Re-checks every minute while off; shows nothing
 * while the health is unknown or fine.
 */
export function SemanticSearchBanner() {
  const [offModel, setOffModel] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      try {
        // 503 (database down) still carries the report, so the body is read whatever the status
        const response = await fetch('/api/health', { headers: { accept: 'application/json' }, cache: 'no-store' });
        const parsed = healthSchema.safeParse(await response.json());
        if (cancelled || !parsed.success) return;
        const off = !parsed.data.mode.semanticSearch;
        setOffModel(off ? parsed.data.embedder.model || 'the embedding model' : null);
        if (off) timer = setTimeout(check, RECHECK_MS);
      } catch {
        // health is advisory here: an unreachable server is reported by the actions that need it
      }
    };
    void check();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, []);

  if (!offModel) return null;
  return (
    <div
      role="status"
      data-testid="semantic-search-banner"
      className="flex items-start gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <InfoIcon className="mt-0.5 h-5 w-5 text-amber-600" />
      <p className="min-w-0">
        <span className="font-semibold">Semantic search is off:</span> no embedding model answered. Documents are
        indexed for keyword search and get vectors when{' '}
        <code className="rounded bg-amber-100 px-1 py-px font-mono text-[13px] break-all">{offModel}</code> is
        reachable.
      </p>
    </div>
  );
}
