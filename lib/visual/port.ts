import type { LanguageModel } from 'ai';
import type { VisualPageFlag } from '@/lib/ingest/types';
import { interpretImage } from './interpret';
import type { PageImage } from './render';

/**
 * What the agent's visual_interpretation tool needs, as a port: the flagged pages of documents, and one reading of
 * a page image. lib/visual/app-port.ts builds it over lib/db, the stored files and the configured vision model;
 * tests pass fakes. Every method takes the owner id; another owner's document answers like a missing one.
 */
export interface VisionPort {
  /** Name of the vision model (for the trace and the evidence label). */
  model: string;
  flaggedPages(ownerId: string, documentIds: readonly string[]): Promise<(VisualPageFlag & { documentId: string })[]>;
  /** The model's reading of page `page` (null for an image document), or null when the document is not readable. */
  read(args: {
    ownerId: string;
    documentId: string;
    page: number | null;
    question: string;
    signal?: AbortSignal;
  }): Promise<VisualReadingResult | null>;
}

export interface VisualReadingResult {
  text: string;
  page: number | null;
  width: number;
  height: number;
  renderMs: number;
  modelMs: number;
}

/** A VisionPort from its parts: how to find and render the owner's file, and the model to ask. */
export function createVisionPort(parts: {
  model: LanguageModel;
  modelName: string;
  timeoutMs: number;
  maxImagePx: number;
  flaggedPages: VisionPort['flaggedPages'];
  /** The owner's INDEXED document's file path and mime, or null. */
  locate(ownerId: string, documentId: string): Promise<{ path: string; mime: string } | null>;
  renderPdfPage(path: string, page: number, maxPx: number): Promise<PageImage>;
  scaleImage(path: string, maxPx: number): Promise<PageImage>;
}): VisionPort {
  return {
    model: parts.modelName,
    flaggedPages: parts.flaggedPages,
    async read({ ownerId, documentId, page, question, signal }) {
      const file = await parts.locate(ownerId, documentId);
      if (!file) return null;
      const started = performance.now();
      let image: PageImage;
      if (file.mime === 'application/pdf') {
        if (page === null) return null;
        image = await parts.renderPdfPage(file.path, page, parts.maxImagePx);
      } else if (file.mime.startsWith('image/')) {
        image = await parts.scaleImage(file.path, parts.maxImagePx);
      } else return null;
      const renderMs = Math.round(performance.now() - started);
      const reading = await interpretImage({
        model: parts.model,
        png: image.png,
        question,
        timeoutMs: parts.timeoutMs,
        signal,
      });
      return {
        text: reading.text,
        page: file.mime === 'application/pdf' ? page : null,
        width: image.width,
        height: image.height,
        renderMs,
        modelMs: reading.ms,
      };
    },
  };
}
