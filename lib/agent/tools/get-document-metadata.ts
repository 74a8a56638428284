import type { TypedMeta } from '@/lib/domain/typed-meta';
import { normalizeHandle } from '../state';

/** "total_amount=1500 (p.1 "Total: $1,500.00"), issued=2023-03-02": typed values with where each was read. */
function typedLine(typed: TypedMeta | undefined): string {
  if (!typed) return '';
  return Object.entries(typed.values)
    .map(([key, value]) => {
      const proof = typed.evidence[key];
      const where = proof?.page ? `p.${proof.page} ` : '';
      const quote = proof?.quote ? ` (${where}"${proof.quote.slice(0, 80)}")` : '';
      return `${key}=${String(value)}${quote}`;
    })
    .join(', ');
}

import { type AgentTool, type ToolContext, toolError } from './types';

/** get_document_metadata: title, bucket, date, tags, fields and sizes of a document named by a d# or r# handle. */
export function createGetDocumentMetadataTool(ctx: ToolContext): AgentTool {
  const { state } = ctx;
  return {
    name: 'get_document_metadata',
    kind: 'inspect',
    description:
      "get_document_metadata {handle} – a document's title, bucket, date, tags, fields and typed values (handle d2 or r3).",
    isAvailable: () => state.docHandles.size > 0,
    async run(call) {
      const d = normalizeHandle(call.handle, 'd');
      const r = normalizeHandle(call.handle, 'r');
      const documentId = d ? state.docByHandle.get(d) : r ? state.results.get(r)?.hit.documentId : undefined;
      if (!documentId)
        return toolError(
          'UNKNOWN_HANDLE',
          `"${call.handle ?? ''}" is not a document or result handle.`,
          'Use a d# or r# handle from the search results.',
        );
      let meta = state.metadata.get(documentId);
      if (meta === undefined) {
        try {
          meta = await ctx.catalog.getDocument(ctx.ownerId, documentId);
        } catch (error) {
          return toolError(
            'METADATA_FAILED',
            `Could not read the metadata: ${error instanceof Error ? error.message.slice(0, 160) : 'unknown error'}.`,
            'Continue without it.',
          );
        }
        state.metadata.set(documentId, meta);
      }
      if (!meta) return toolError('NOT_FOUND', 'That document is not available.', 'Use another result.');
      const handle = state.docHandles.get(documentId) ?? '';
      const fields = Object.entries(meta.fields)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ');
      const text = [
        `${handle} "${meta.filename}"${meta.title ? ` (${meta.title})` : ''}`,
        `bucket: ${meta.bucketName ?? 'none'}; date: ${meta.documentDate ?? 'unknown'}; type: ${meta.mime}`,
        `tags: ${meta.tags.join(', ') || 'none'}; fields: ${fields || 'none'}`,
        `pages: ${meta.pageCount ?? 'n/a'}; chunks: ${meta.chunkCount ?? 'n/a'}`,
        `typed: ${typedLine(meta.typed) || 'none'}`,
      ].join('\n');
      return { ok: true, hits: 1, summary: `Metadata of ${meta.filename}`, forModel: text };
    },
  };
}
