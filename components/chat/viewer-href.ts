import type { AgentCitation } from '@/lib/agent/types';

/** The viewer URL for a citation: the page (when there is one), the chunk and the quote offsets inside it. */
export function viewerHref(
  c: Pick<AgentCitation, 'documentId' | 'chunkId' | 'page' | 'quoteStart' | 'quoteEnd'>,
): string {
  const params = new URLSearchParams();
  if (c.page !== null) params.set('page', String(c.page));
  params.set('chunk', c.chunkId);
  if (c.quoteEnd > c.quoteStart) {
    params.set('qs', String(c.quoteStart));
    params.set('qe', String(c.quoteEnd));
  }
  return `/documents/${encodeURIComponent(c.documentId)}/view?${params.toString()}`;
}
