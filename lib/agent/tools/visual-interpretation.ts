import type { IndexedChunk } from '@/lib/retrieval/types';
import { normalizeHandle } from '../state';
import { type AgentTool, type ToolContext, type ToolOutcome, toolError } from './types';

/**
 * visual_interpretation: renders the page a result lies on (or an uploaded image) and asks the vision model about
 * it (lib/visual). The reading becomes an opened source [n] with its page, labelled as a model's reading of a
 * picture; the gate never accepts a quote from it (OpenedChunk.verbatim = false). Offered only when a vision model
 * is configured and there is a result to look at.
 */

export const VISUAL_LABEL = "a vision model's reading of the page image, not the document's words";

export function createVisualInterpretationTool(ctx: ToolContext): AgentTool {
  const { state } = ctx;
  return {
    name: 'visual_interpretation',
    kind: 'open',
    description:
      'visual_interpretation {handle, page?, query?} – a vision model reads the page image of a result (e.g. "r3"; or "d2" with page) and answers query about its figures, charts or layout; use it for pages flagged as figures or little text. Its reading can be cited as [n] but never quoted.',
    isAvailable: () => ctx.vision != null && state.results.size > 0,
    async run(call): Promise<ToolOutcome> {
      const vision = ctx.vision;
      if (!vision) return toolError('UNAVAILABLE', 'No vision model is configured.', 'Use open_citation on the text.');
      const r = normalizeHandle(call.handle, 'r');
      const d = normalizeHandle(call.handle, 'd');
      const entry = r ? state.results.get(r) : undefined;
      const documentId = entry?.hit.documentId ?? (d ? state.docByHandle.get(d) : undefined);
      if (!documentId)
        return toolError(
          'UNKNOWN_HANDLE',
          `"${call.handle ?? ''}" is not a result or document handle.`,
          'Give a result handle such as r3 (its page is used), or a d# handle with a page.',
        );
      const page = call.page ?? entry?.hit.page ?? null;
      const doc = await ctx.catalog.getDocument(ctx.ownerId, documentId);
      if (!doc) return toolError('NOT_FOUND', 'That document is no longer available.', 'Search again.');
      const isImage = doc.mime.startsWith('image/');
      if (!isImage && (doc.mime !== 'application/pdf' || page === null))
        return toolError(
          'NOT_VISUAL',
          `${doc.filename} has no page image to read${doc.mime === 'application/pdf' ? ' (no page given)' : ''}.`,
          'Use open_citation to read its text.',
        );
      const chunkId = `visual:${documentId}:${isImage ? 0 : page}`;
      const already = state.opened.find((o) => o.chunk.chunkId === chunkId);
      if (already)
        return toolError('ALREADY_OPEN', `That page was already read as [${already.n}].`, `Cite it as [${already.n}].`);
      if (state.opened.length >= state.limits.maxContextCitations)
        return toolError(
          'CONTEXT_CITATIONS_FULL',
          `${state.limits.maxContextCitations} sources are already open (the limit).`,
          'Answer with the opened sources.',
        );
      const question = (call.query ?? '').trim() || state.question;
      let reading: Awaited<ReturnType<typeof vision.read>>;
      try {
        reading = await vision.read({
          ownerId: ctx.ownerId,
          documentId,
          page: isImage ? null : page,
          question,
          signal: ctx.signal,
        });
      } catch (error) {
        return toolError(
          'VISION_FAILED',
          `The vision model could not read ${doc.filename}${page ? ` p.${page}` : ''}: ${error instanceof Error ? error.message.slice(0, 160) : 'unknown error'}.`,
          'Use open_citation on the text of that page instead.',
        );
      }
      if (!reading) return toolError('NOT_FOUND', 'That page is not available.', 'Search again.');
      const text = `[${VISUAL_LABEL} (${vision.model})] ${reading.text}`;
      const chunk: IndexedChunk = {
        chunkId,
        documentId,
        ownerId: ctx.ownerId,
        index: -1,
        text,
        contextPrefix: '',
        tokenCount: Math.ceil(text.length / 4),
        page: reading.page,
        sheet: null,
        rowStart: null,
        rowEnd: null,
        headingPath: `visual reading by ${vision.model}`,
        charStart: 0,
        charEnd: text.length,
        vector: null,
        embeddingModel: null,
        bucketId: doc.bucketId,
        mime: doc.mime,
        filename: doc.filename,
        title: doc.title ?? null,
        documentDate: doc.documentDate ?? null,
        tags: doc.tags ?? [],
        fields: doc.fields ?? {},
      };
      const n = state.opened.length + 1;
      state.opened.push({
        n,
        handle: entry?.handle ?? `${call.handle ?? ''}`,
        chunk,
        score: 0,
        injected: [],
        suspect: [],
        modelChars: Math.min(text.length, state.limits.maxCitationCharsForModel),
        verbatim: false,
      });
      const where = reading.page !== null ? ` p.${reading.page}` : '';
      const summary = `Read ${doc.filename}${where} as a picture (${reading.width}×${reading.height} px, render ${reading.renderMs} ms, model ${reading.modelMs} ms) as [${n}]`;
      return {
        ok: true,
        hits: 1,
        summary,
        forModel: `${summary}. It is ${VISUAL_LABEL}: cite it as [${n}] for what the picture shows, never quote it.`,
      };
    },
  };
}

/**
 * After a search, names the result pages flagged at ingest as pictures (figures, charts, little text), so the
 * model knows where visual_interpretation is worth a call. Only when a vision model is configured.
 */
export function withVisualFlags(tool: AgentTool, ctx: ToolContext): AgentTool {
  const vision = ctx.vision;
  if (!vision || tool.kind !== 'search') return tool;
  const known = new Map<string, Map<number, string>>();
  return {
    ...tool,
    async run(call, callId) {
      const outcome = await tool.run(call, callId);
      if (!outcome.ok) return outcome;
      const entries = [...ctx.state.results.values()].filter((e) => !e.pruned && e.hit.page !== null);
      const missing = [...new Set(entries.map((e) => e.hit.documentId))].filter((id) => !known.has(id));
      if (missing.length > 0) {
        const flags = await vision.flaggedPages(ctx.ownerId, missing).catch(() => []);
        for (const id of missing) known.set(id, new Map());
        for (const f of flags) known.get(f.documentId)?.set(f.page, f.reason);
      }
      const flagged = entries.flatMap((e) => {
        const reason = e.hit.page !== null ? known.get(e.hit.documentId)?.get(e.hit.page) : undefined;
        return reason ? [`${e.handle} p.${e.hit.page} (${reason.replace(',', ', ')})`] : [];
      });
      if (flagged.length === 0) return outcome;
      return {
        ...outcome,
        forModel: `${outcome.forModel}\nPages that look like pictures: ${flagged.slice(0, 8).join('; ')}. visual_interpretation {handle} can read one.`,
      };
    },
  };
}
