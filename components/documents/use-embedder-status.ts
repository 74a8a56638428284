'use client';

import { useEffect, useState } from 'react';
import { z } from 'zod';

const RECHECK_MS = 60_000;

const healthSchema = z.object({
  embedder: z.object({ status: z.string(), model: z.string() }),
  mode: z.object({ semanticSearch: z.boolean() }),
});

export interface EmbedderStatus {
  /** null until GET /api/health has answered (then nothing is assumed). */
  semanticSearch: boolean | null;
  /** The configured embedding model ('' while unknown). */
  model: string;
}

/**
 * Whether an embedding model answers (GET /api/health), re-checked every minute while it does not. One source for
 * the semantic-search banner and the stage wording of the rows.
 */
export function useEmbedderStatus(): EmbedderStatus {
  const [status, setStatus] = useState<EmbedderStatus>({ semanticSearch: null, model: '' });

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      try {
        // 503 (database down) still carries the report, so the body is read whatever the status
        const response = await fetch('/api/health', { headers: { accept: 'application/json' }, cache: 'no-store' });
        const parsed = healthSchema.safeParse(await response.json());
        if (cancelled || !parsed.success) return;
        const on = parsed.data.mode.semanticSearch;
        setStatus({ semanticSearch: on, model: parsed.data.embedder.model });
        if (!on) timer = setTimeout(check, RECHECK_MS);
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

  return status;
}
