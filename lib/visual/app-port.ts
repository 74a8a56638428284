import { getConfig } from '@/lib/config';
import { findStoredFile } from '@/lib/db/documents';
import { listVisualPages } from '@/lib/db/visual-pages';
import { storedFilePath } from '@/lib/ingest/storage';
import type { ModelRegistry } from '@/lib/llm/registry';
import { createVisionPort, type VisionPort } from './port';
import { renderPdfPage, scaleImage } from './render';

/** The app's vision port when LLM_VISION_MODEL is configured (and the models answer), else null. */
export function appVisionPort(registry: ModelRegistry, canGenerate: boolean): VisionPort | null {
  const vision = getConfig().llm.vision;
  if (!vision || !canGenerate) return null;
  return createVisionPort({
    model: registry.chat(vision.model),
    modelName: vision.model,
    timeoutMs: vision.timeoutMs,
    maxImagePx: vision.maxImagePx,
    flaggedPages: listVisualPages,
    async locate(ownerId, documentId) {
      const file = await findStoredFile({ ownerId, id: documentId });
      return file ? { path: storedFilePath(file.storedName), mime: file.mime } : null;
    },
    renderPdfPage,
    scaleImage,
  });
}
