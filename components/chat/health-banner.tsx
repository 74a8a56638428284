'use client';

import { useEffect, useState } from 'react';
import { AlertIcon, XIcon } from '@/components/icons';
import { type HealthSummary, loadHealth, pullCommands } from './health';

function Code({ children }: { children: string }) {
  return <code className="rounded bg-amber-100 px-1 py-0.5 font-mono text-[0.8em] text-amber-950">{children}</code>;
}

/** Explains extractive mode (no language model reachable) and how to get written answers. */
export function HealthBanner() {
  const [health, setHealth] = useState<HealthSummary | null>(null);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    const ctrl = new AbortController();
    void loadHealth(ctrl.signal).then((h) => {
      if (!ctrl.signal.aborted) setHealth(h);
    });
    return () => ctrl.abort();
  }, []);

  if (!health || dismissed || health.mode.answers !== 'extractive') return null;
  const isOllama = (health.llm.provider ?? 'ollama') === 'ollama';
  const commands = pullCommands(health);
  return (
    <div
      role="status"
      className="border-b border-amber-200 bg-amber-50 px-3 py-1.5 text-[0.8rem] text-amber-950 sm:px-4"
      data-testid="extractive-banner"
    >
      <div className="mx-auto flex max-w-3xl items-start gap-2">
        <AlertIcon className="mt-0.5 h-3.5 w-3.5 flex-none text-amber-700" />
        <details className="group min-w-0 flex-1">
          <summary className="flex cursor-pointer list-none items-baseline gap-2 leading-snug [&::-webkit-details-marker]:hidden">
            <span className="min-w-0 truncate">
              No language model is reachable, so answers are extractive: quoted sentences from your documents.
            </span>
            <span className="flex-none font-medium underline underline-offset-2 group-open:hidden">How to fix</span>
            <span className="hidden flex-none font-medium underline underline-offset-2 group-open:inline">Hide</span>
          </summary>
          <p className="mt-1 leading-snug">
            {isOllama ? (
              <>
                To get written answers, start Ollama (<Code>ollama serve</Code>) and pull the configured models:{' '}
                {commands.map((c, i) => (
                  <span key={c}>
                    {i > 0 ? (i === commands.length - 1 ? ' and ' : ', ') : null}
                    <Code>{c}</Code>
                  </span>
                ))}
                .
              </>
            ) : (
              <>
                To get written answers, start the configured model server
                {health.llm.detail ? ` (${health.llm.detail})` : ''}.
              </>
            )}
          </p>
        </details>
        <button
          type="button"
          onClick={() => setDismissed(true)}
          className="rounded p-0.5 text-amber-800 hover:bg-amber-100"
          aria-label="Dismiss the extractive-mode notice"
        >
          <XIcon className="h-4 w-4" />
        </button>
      </div>
    </div>
  );
}
