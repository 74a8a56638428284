import { InfoIcon } from '@/components/icons';
import type { EmbedderStatus } from './use-embedder-status';

/**
 * Tells the user when semantic search is off (no embedding model answered), and which model their documents will
 * get vectors from once it is reachable. Shows nothing while the health is unknown or fine.
 */
export function SemanticSearchBanner({ embedder }: { embedder: EmbedderStatus }) {
  if (embedder.semanticSearch !== false) return null;
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
        <code className="rounded bg-amber-100 px-1 py-px font-mono text-[13px] break-all">
          {embedder.model || 'the embedding model'}
        </code>{' '}
        is reachable.
      </p>
    </div>
  );
}
